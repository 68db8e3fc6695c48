// A small, strict XML reader for the tests (the SVG figures): elements, attributes, text,
// comments and processing instructions; anything malformed (an unclosed or mismatched tag, an
// unquoted or repeated attribute, text outside the root) throws with its offset.
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /[A-Za-z_:][\w:.-]*/y;
const ATTRIBUTE = /\s+([A-Za-z_:][\w:.-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/y;

export function parseXml(source: string): XmlElement {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`XML: ${what} at offset ${at}`);
  };
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (at < source.length) {
    const lt = source.indexOf('<', at);
    const text = source.slice(at, lt < 0 ? source.length : lt);
    if (text.trim()) {
      if (!stack.length) fail('text outside the root element');
      stack[stack.length - 1].text += text;
    }
    if (lt < 0) break;
    at = lt;
    if (source.startsWith('<!--', at)) {
      const end = source.indexOf('-->', at);
      if (end < 0) fail('unclosed comment');
      at = end + 3;
    } else if (source.startsWith('<?', at)) {
      const end = source.indexOf('?>', at);
      if (end < 0) fail('unclosed processing instruction');
      at = end + 2;
    } else if (source.startsWith('</', at)) {
      NAME.lastIndex = at + 2;
      const m = NAME.exec(source) ?? fail('a closing tag without a name');
      const open = stack.pop() ?? fail(`</${m[0]}> with no open element`);
      if (open.name !== m[0]) fail(`</${m[0]}> closes <${open.name}>`);
      at = NAME.lastIndex;
      while (/\s/.test(source[at] ?? '')) at++;
      if (source[at] !== '>') fail('a closing tag not ended by >');
      at++;
    } else {
      NAME.lastIndex = at + 1;
      const m = NAME.exec(source) ?? fail('a tag without a name');
      const element: XmlElement = { name: m[0], attributes: {}, children: [], text: '' };
      at = NAME.lastIndex;
      for (;;) {
        ATTRIBUTE.lastIndex = at;
        const a = ATTRIBUTE.exec(source);
        if (!a) break;
        if (a[1] in element.attributes) fail(`attribute ${a[1]} repeated`);
        element.attributes[a[1]] = a[3] ?? a[4];
        at = ATTRIBUTE.lastIndex;
      }
      while (/\s/.test(source[at] ?? '')) at++;
      const selfClosing = source.startsWith('/>', at);
      if (!selfClosing && source[at] !== '>') fail(`<${element.name}> not ended by > or />`);
      at += selfClosing ? 2 : 1;
      if (stack.length) stack[stack.length - 1].children.push(element);
      else if (root) fail('a second root element');
      else root = element;
      if (!selfClosing) stack.push(element);
    }
  }
  if (stack.length) fail(`<${stack[stack.length - 1].name}> never closed`);
  return root ?? fail('no element');
}

/** Every element of the tree, depth first. */
export function* elements(e: XmlElement): Generator<XmlElement> {
  yield e;
  for (const c of e.children) yield* elements(c);
}
