/**
 * One plain layout for every e-mail: short paragraphs, one button-like link that is also written
 * out in full (clients that block styles or links still show it), Portuguese throughout.
 * Table-free and with inline styles only, which is what mail clients render reliably.
 */
export type ComposeInput = {
  subject: string;
  greeting?: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
};

export function composeMail(input: ComposeInput): { subject: string; text: string; html: string } {
  // A subject is one header line: a newline in it would be folded or, worse, start a header.
  const subject = input.subject.replace(/[\r\n]+/g, " ").trim();
  const footer = input.footer ?? "Você recebeu este e-mail porque ele foi solicitado no nosso site. Se não foi você, pode ignorá-lo.";

  const textParts: string[] = [];
  if (input.greeting) textParts.push(input.greeting);
  textParts.push(...input.paragraphs);
  if (input.action) textParts.push(`${input.action.label}:\n${input.action.url}`);
  textParts.push(`--\n${footer}`);
  const text = `${textParts.join("\n\n")}\n`;

  const p = (content: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;">${content}</p>`;
  const body: string[] = [];
  if (input.greeting) body.push(p(escapeHtml(input.greeting)));
  for (const paragraph of input.paragraphs) body.push(p(escapeHtml(paragraph)));
  if (input.action) {
    const href = escapeHtml(safeUrl(input.action.url));
    body.push(
      `<p style="margin:24px 0;"><a href="${href}" style="display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px;font-size:16px;font-weight:bold;">${escapeHtml(input.action.label)}</a></p>`,
      p(`Se o botão não funcionar, copie e cole este endereço no navegador:<br><a href="${href}" style="color:#1d4ed8;word-break:break-all;">${escapeHtml(input.action.url)}</a>`),
    );
  }
  body.push(
    `<p style="margin:32px 0 0;padding-top:16px;border-top:1px solid #e5e7eb;font-size:13px;line-height:1.5;color:#4b5563;">${escapeHtml(footer)}</p>`,
  );

  const html = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<div style="max-width:560px;margin:0 auto;padding:24px 16px;font-family:Arial,Helvetica,sans-serif;color:#111827;">
<div style="background:#ffffff;border-radius:8px;padding:24px;">
${body.join("\n")}
</div>
</div>
</body>
</html>
`;
  return { subject, text, html };
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Only http(s) links become a clickable href: a `javascript:` URL would be a trap in a mail. */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.toString() : "#";
  } catch {
    return "#";
  }
}
