/**
 * The address of a CEP from an outside service (issue 22, item 4; decision 018), off unless
 * CEP_LOOKUP_URL is set: a URL template with {cep} that answers as ViaCEP does
 * ({ logradouro, bairro, localidade, uf } or { erro: true }). The CEP is checked before any call,
 * the call gives up after a few seconds, and only the four fields come back, trimmed and bounded.
 */

export const CEP_PATTERN = /^(\d{5})-?(\d{3})$/;
export const CEP_MESSAGES = {
  invalid: "CEP inválido: use 8 dígitos, como 59000-000",
  notConfigured: "A busca de endereço pelo CEP não está configurada",
  notFound: "CEP não encontrado",
  unavailable: "O serviço de CEP não respondeu: preencha o endereço à mão",
} as const;
export const CEP_TIMEOUT_MS = 4000;

export type CepAddress = { cep: string; street: string; neighborhood: string; city: string; state: string };
export type CepAnswer = { ok: true; address: CepAddress } | { ok: false; status: 400 | 404 | 502; message: string };

const field = (value: unknown, max: number) => (typeof value === "string" ? value.trim().slice(0, max) : "");

export async function lookupCep(cepText: string, template: string | undefined, fetcher: typeof fetch = fetch): Promise<CepAnswer> {
  const match = CEP_PATTERN.exec(cepText.trim());
  if (!match) return { ok: false, status: 400, message: CEP_MESSAGES.invalid };
  if (!template) return { ok: false, status: 404, message: CEP_MESSAGES.notConfigured };
  const digits = `${match[1]}${match[2]}`;
  let body: Record<string, unknown>;
  try {
    const response = await fetcher(template.replace("{cep}", digits), {
      headers: { Accept: "application/json" },
      signal: AbortSignal.timeout(CEP_TIMEOUT_MS),
      redirect: "error",
    });
    if (response.status === 400 || response.status === 404) return { ok: false, status: 404, message: CEP_MESSAGES.notFound };
    if (!response.ok) return { ok: false, status: 502, message: CEP_MESSAGES.unavailable };
    const text = await response.text();
    if (text.length > 10_000) return { ok: false, status: 502, message: CEP_MESSAGES.unavailable };
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, status: 502, message: CEP_MESSAGES.unavailable };
  }
  if (!body || typeof body !== "object" || body.erro) return { ok: false, status: 404, message: CEP_MESSAGES.notFound };
  const state = field(body.uf, 2).toUpperCase();
  return {
    ok: true,
    address: {
      cep: `${match[1]}-${match[2]}`,
      street: field(body.logradouro, 200),
      neighborhood: field(body.bairro, 100),
      city: field(body.localidade, 100),
      state: /^[A-Z]{2}$/.test(state) ? state : "",
    },
  };
}
