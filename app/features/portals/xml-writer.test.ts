import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { child, parseXml } from "../../../tests/helpers/xml";
import { cdataSection, escapeAttribute, escapeText, XmlWriter, xmlSafe } from "./xml-writer";

/**
 * The feed's XML writer against a conforming parser (saxes): whatever a listing's text holds, the
 * document stays well-formed and reads back as the same text, less what XML 1.0 cannot carry.
 */

/** A one-element document with `value` written as text, as CDATA and as an attribute. */
function roundTrip(value: string) {
  const writer = new XmlWriter().declaration().start("Doc", { note: value });
  writer.text("Text", value).cdata("Cdata", value).end();
  const root = parseXml(writer.take());
  return { attribute: root.attributes.note, text: child(root, "Text").text, cdata: child(root, "Cdata").text };
}

/**
 * What a parser must give back: the value without the characters XML cannot carry, with line
 * ends normalised (XML 1.0 §2.11 turns CR LF and a lone CR into LF in content, but an attribute
 * keeps the CR we wrote as a reference).
 */
const expectedContent = (value: string) => xmlSafe(value).replace(/\r\n?/g, "\n");

describe("the XML writer", () => {
  it("reads hostile titles back exactly", () => {
    const hostile = [
      "Casa ]]> com CDATA fechado",
      "]]>]]>]]>",
      "x]]]]><![CDATA[y",
      "]]",
      ">",
      "<script>alert('x')</script> & <b>negrito</b>",
      "&amp; &lt; &#0; &#x1F; &bogus;",
      'Aspas "duplas" e \'simples\'',
      "Apartamento 🏖️ na praia, 3/4 🛏️, família 👨‍👩‍👧",
      "Acentuação: ação, pão, Tirol, Capim Macio, Nº 12 º ª ç",
      "tab\there\nline\r\nwindows\rmac",
    ];
    for (const value of hostile) {
      const back = roundTrip(value);
      expect(back.text).toBe(expectedContent(value));
      expect(back.cdata).toBe(expectedContent(value));
      expect(back.attribute).toBe(xmlSafe(value));
    }
  });

  it("drops control characters, DEL, C1, U+FFFE/U+FFFF and lone surrogates, and keeps everything else", () => {
    const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join("");
    const value = `a${controls}b\u007F\u0080\u0085\u009Fc\uFFFE\uFFFFd\uD800e\uDC00f\uDBFF\uD83D🏠g`;
    // Only tab, line feed and carriage return survive among the controls; the emoji's pair stays whole.
    expect(xmlSafe(value)).toBe("a\t\n\rbcdef🏠g");
    const back = roundTrip(value);
    expect(back.cdata).toBe("a\t\n\nbcdef🏠g");
    expect(back.text).toBe("a\t\n\nbcdef🏠g");
    expect(back.attribute).toBe("a\t\n\rbcdef🏠g");
  });

  it("escapes exactly what it must", () => {
    expect(escapeText("a < b && c > d \"q\" 'a'")).toBe("a &lt; b &amp;&amp; c &gt; d \"q\" 'a'");
    expect(escapeAttribute("a<b&\"c\"'d'\te\nf\rg")).toBe("a&lt;b&amp;&quot;c&quot;&apos;d&apos;&#9;e&#10;f&#13;g");
    expect(cdataSection("a]]>b")).toBe("<![CDATA[a]]]]><![CDATA[>b]]>");
    expect(cdataSection("")).toBe("<![CDATA[]]>");
  });

  it("any string at all makes a well-formed document that reads back (property-based)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), fc.string({ unit: "grapheme", maxLength: 30 }), (binary, graphemes) => {
        for (const value of [binary, graphemes, `${binary}]]>${graphemes}`]) {
          const back = roundTrip(value);
          expect(back.text).toBe(expectedContent(value));
          expect(back.cdata).toBe(expectedContent(value));
          expect(back.attribute).toBe(xmlSafe(value));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("nests and indents elements, skips undefined attributes, and hands over what it wrote", () => {
    const writer = new XmlWriter().declaration();
    writer.start("Feed", { version: 1, skipped: undefined }).start("Item").text("Name", "um").end();
    expect(writer.depth).toBe(1);
    const first = writer.take();
    expect(first).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<Feed version="1">\n  <Item>\n    <Name>um</Name>\n  </Item>\n');
    writer.text("Count", 2).end();
    expect(writer.take()).toBe("  <Count>2</Count>\n</Feed>\n");
    expect(writer.take()).toBe("");
    expect(writer.depth).toBe(0);
    expect(() => writer.end()).toThrow(/without an open element/);
    expect(parseXml(first + "  <Count>2</Count>\n</Feed>\n").children.map((element) => element.name)).toEqual(["Item", "Count"]);
  });
});
