import { SaxesParser } from "saxes";

/**
 * XML read back by a conforming, strict parser (saxes: XML 1.0 well-formedness and namespaces),
 * for the tests of what we write (the portals' VRSync feed). Any well-formedness error throws.
 */

export type XmlElement = {
  /** Local name (no prefix). */
  name: string;
  /** Namespace URI ("" for none). */
  uri: string;
  /** Attributes by their qualified name (xmlns declarations included). */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Text and CDATA content directly inside the element, joined (indentation around children dropped). */
  text: string;
  /** How many CDATA sections held that text (0: plain character data). */
  cdataSections: number;
};

export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => {
    const element: XmlElement = {
      name: tag.local,
      uri: tag.uri,
      attributes: Object.fromEntries(Object.values(tag.attributes).map((attribute) => [attribute.name, attribute.value])),
      children: [],
      text: "",
      cdataSections: 0,
    };
    stack.at(-1)?.children.push(element);
    if (!root) root = element;
    stack.push(element);
  });
  parser.on("closetag", () => {
    const element = stack.pop();
    // Whitespace between child elements (our indentation) is not content.
    if (element && element.children.length > 0 && element.text.trim() === "") element.text = "";
  });
  parser.on("text", (text) => {
    const current = stack.at(-1);
    if (current) current.text += text;
  });
  parser.on("cdata", (cdata) => {
    const current = stack.at(-1);
    if (!current) return;
    current.text += cdata;
    current.cdataSections++;
  });
  parser.write(xml).close();
  if (!root) throw new Error("parseXml: no root element");
  return root;
}

/** The only child named `name` (throws when there is none or several). */
export function child(element: XmlElement, name: string): XmlElement {
  const found = element.children.filter((candidate) => candidate.name === name);
  if (found.length !== 1) throw new Error(`<${element.name}> has ${found.length} <${name}> children`);
  return found[0];
}

/** The names of an element's children, in document order. */
export const childNames = (element: XmlElement) => element.children.map((candidate) => candidate.name);
