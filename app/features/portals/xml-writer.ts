/**
 * A small XML writer for feeds written in chunks (the portals' VRSync feed): elements, attributes,
 * escaped text and CDATA, appended to a buffer that the caller takes as a string whenever it
 * wants to send what it has. Element names come from our code, never from data; every value that
 * comes from data goes through `text`, `attr` or `cdata` below, which are correct for any input:
 *
 * - Characters XML 1.0 does not allow (§2.2 Char: C0 controls other than tab, line feed and
 *   carriage return, lone UTF-16 surrogates, U+FFFE and U+FFFF) are removed, and so are DEL and
 *   the C1 controls (U+007F–U+009F, "discouraged" by §2.2): no parser can choke on them.
 * - Text escapes & < > ; attributes also escape quotes and keep tabs and line breaks as references.
 * - CDATA cannot contain "]]>": each one is split over two sections ("]]" ends the first, ">"
 *   starts the next), which a parser reads back as the same text.
 *
 * Why not a library: xmlbuilder2's callback API streams too, but these three rules are the whole
 * of what a feed needs and neither it nor the others we looked at split "]]>" in CDATA; the
 * tests (xml-writer.test.ts) check every rule against a conforming parser (saxes).
 */

// Not in XML 1.0's Char production, plus DEL and C1. With the u flag a lone surrogate is one
// code point in D800–DFFF, outside every allowed range, so it matches too.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** The text without the characters an XML 1.0 document cannot carry. */
export const xmlSafe = (value: string) => value.replace(NOT_XML_CHAR, "");

const TEXT_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const ATTRIBUTE_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': "&quot;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;" };

/** Character data for an element's content. */
export const escapeText = (value: string) => xmlSafe(value).replace(/[&<>]/g, (character) => TEXT_ESCAPES[character]);

/** An attribute value (written between double quotes). */
export const escapeAttribute = (value: string) => xmlSafe(value).replace(/[&<>"'\t\n\r]/g, (character) => ATTRIBUTE_ESCAPES[character]);

/** A CDATA section holding exactly `value` (after removing what XML cannot carry). */
export const cdataSection = (value: string) => `<![CDATA[${xmlSafe(value).replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

export type Attributes = Record<string, string | number | undefined>;

function attributes(attrs: Attributes | undefined): string {
  if (!attrs) return "";
  let out = "";
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined) out += ` ${name}="${escapeAttribute(String(value))}"`;
  }
  return out;
}

/** Appends indented XML to a buffer; `take()` hands over what was written so far. */
export class XmlWriter {
  private parts: string[] = [];
  private readonly open: string[] = [];

  constructor(private readonly indent = "  ") {}

  private line(content: string) {
    this.parts.push(`${this.indent.repeat(this.open.length)}${content}\n`);
  }

  /** The XML declaration: first thing in the document. */
  declaration() {
    this.parts.push('<?xml version="1.0" encoding="UTF-8"?>\n');
    return this;
  }

  start(name: string, attrs?: Attributes) {
    this.line(`<${name}${attributes(attrs)}>`);
    this.open.push(name);
    return this;
  }

  end() {
    const name = this.open.pop();
    if (!name) throw new Error("XmlWriter: end() without an open element");
    this.line(`</${name}>`);
    return this;
  }

  /** An element with escaped text content. */
  text(name: string, value: string | number, attrs?: Attributes) {
    this.line(`<${name}${attributes(attrs)}>${escapeText(String(value))}</${name}>`);
    return this;
  }

  /** An element whose content is a CDATA section (free text typed by a person). */
  cdata(name: string, value: string, attrs?: Attributes) {
    this.line(`<${name}${attributes(attrs)}>${cdataSection(value)}</${name}>`);
    return this;
  }

  /** Elements still open (the document is complete when none are). */
  get depth() {
    return this.open.length;
  }

  /** Everything written since the last take. */
  take(): string {
    const out = this.parts.join("");
    this.parts = [];
    return out;
  }
}
