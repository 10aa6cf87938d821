/**
 * A reader for the Python literals Odoo's OCA modules dump as golden parses (`repr` of tuples, lists, dicts, strings,
 * numbers, True/False/None). Numbers stay decimal text (`-754.25`), so nothing passes through a float. Anything else
 * (a call such as `datetime.date(...)`) is an error naming its offset.
 */
export type PyValue = string | { number: string } | boolean | null | PyValue[] | { [key: string]: PyValue };

export function parsePythonLiteral(text: string): PyValue {
  let at = 0;
  const space = (): void => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const fail = (what: string): never => {
    throw new Error(`python literal at offset ${at}: ${what}`);
  };

  function string(): string {
    let result = '';
    // Adjacent literals ('a' 'b') are one string, as pprint writes long ones.
    while (text[at] === "'" || text[at] === '"') {
      const quote = text[at++]!;
      while (text[at] !== quote) {
        if (at >= text.length) fail('unterminated string');
        if (text[at] === '\\') {
          const next = text[at + 1]!;
          const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
          if (simple[next] !== undefined) {
            result += simple[next];
            at += 2;
          } else if (next === 'x' || next === 'u') {
            const size = next === 'x' ? 2 : 4;
            result += String.fromCharCode(parseInt(text.slice(at + 2, at + 2 + size), 16));
            at += 2 + size;
          } else fail(`escape \\${next}`);
        } else result += text[at++];
      }
      at++;
      space();
    }
    return result;
  }

  function sequence(close: string): PyValue[] {
    const items: PyValue[] = [];
    for (space(); text[at] !== close; space()) {
      items.push(value());
      space();
      if (text[at] === ',') at++;
      else if (text[at] !== close) fail(`expected , or ${close}`);
    }
    at++;
    return items;
  }

  function value(): PyValue {
    space();
    const c = text[at];
    if (c === "'" || c === '"') return string();
    if (c === '(' || c === '[') {
      at++;
      return sequence(c === '(' ? ')' : ']');
    }
    if (c === '{') {
      at++;
      const object: { [key: string]: PyValue } = {};
      for (space(); text[at] !== '}'; space()) {
        const key = value();
        space();
        if (text[at++] !== ':') fail('expected :');
        object[typeof key === 'string' ? key : JSON.stringify(key)] = value();
        space();
        if (text[at] === ',') at++;
      }
      at++;
      return object;
    }
    const word = /^(True|False|None|-?\d+(\.\d+)?(e[-+]?\d+)?)/.exec(text.slice(at, at + 40))?.[0];
    if (!word) return fail(`unsupported value ${JSON.stringify(text.slice(at, at + 20))}`);
    at += word.length;
    if (word === 'True' || word === 'False') return word === 'True';
    if (word === 'None') return null;
    return { number: word };
  }

  const result = value();
  space();
  if (at !== text.length) fail('text after the value');
  return result;
}
