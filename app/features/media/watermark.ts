/**
 * The watermark setting (issue 22, item 5): off by default; when on, a line of text (the broker's
 * name unless another is typed) is burned into the public sizes of listing photos. Pure: the
 * settings form and the server share the limits and messages.
 */
export type WatermarkSetting = { enabled: boolean; text: string };

export const WATERMARK_TEXT_MAX = 60;

export const WATERMARK_MESSAGES = {
  textLong: `Texto da marca d'água: no máximo ${WATERMARK_TEXT_MAX} caracteres`,
  textInvalid: "Texto da marca d'água contém caracteres inválidos",
  saved: "Marca d'água salva. As fotos já enviadas estão sendo refeitas.",
  unchanged: "Nada mudou: a marca d'água continua igual.",
} as const;

/** The setting from any input (a form or JSON), or a Portuguese reason to refuse it. */
export function parseWatermark(input: { enabled?: unknown; text?: unknown }): { ok: true; value: WatermarkSetting } | { ok: false; message: string } {
  const enabled = input.enabled === true || input.enabled === "true" || input.enabled === "on";
  if (input.text !== undefined && input.text !== null && typeof input.text !== "string") return { ok: false, message: WATERMARK_MESSAGES.textInvalid };
  const text = (input.text ?? "").trim().replace(/\s+/g, " ");
  if (text.length > WATERMARK_TEXT_MAX) return { ok: false, message: WATERMARK_MESSAGES.textLong };
  if (/[\u0000-\u001f\u007f\ud800-\udfff]/.test(text)) return { ok: false, message: WATERMARK_MESSAGES.textInvalid };
  return { ok: true, value: { enabled, text } };
}
