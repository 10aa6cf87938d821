/**
 * Where each `${...}` of an `html` template sits, found by reading the template's literal parts once: enough
 * of the HTML tokenizer to tell element text from attribute values. Interpolated values cannot change the
 * answer, because they are escaped (or are complete SafeHtml fragments).
 */

/** The attribute an interpolation is in, and whether it starts that attribute's value. */
export interface SlotContext {
  /** Lower-cased attribute name when the interpolation is inside an attribute value, else null. */
  attribute: string | null;
  /** True when nothing but slashes or spaces precede it in the value, so it decides scheme and host. */
  startsValue: boolean;
}

type State =
  | 'text'
  | 'comment'
  | 'tagName'
  | 'tag'
  | 'attrName'
  | 'afterAttrName'
  | 'beforeValue'
  | 'doubleQuoted'
  | 'singleQuoted'
  | 'unquoted'
  | 'rawText';

const SPACE = /\s/;
// Their bodies are not markup: a `<` or a quote in them must not be read as a tag or an attribute.
const RAW_TEXT_ELEMENTS = new Set(['script', 'style']);
const NOTHING = /^[\s/\\]*$/;

class Scanner {
  private state: State = 'text';
  private tagName = '';
  private closing = false;
  private attribute = '';
  private valuePrefix = '';
  private interpolatedInValue = false;

  feed(chunk: string): void {
    let i = 0;
    while (i < chunk.length) {
      const c = chunk[i] as string;
      switch (this.state) {
        case 'text':
          if (c === '<' && chunk.startsWith('!--', i + 1)) {
            this.state = 'comment';
            i += 3;
          } else if (c === '<' && /[A-Za-z!?/]/.test(chunk[i + 1] ?? '')) {
            this.state = 'tagName';
            this.tagName = '';
            this.closing = chunk[i + 1] === '/';
            if (this.closing) i += 1;
          }
          break;
        case 'comment':
          if (chunk.startsWith('-->', i)) {
            this.state = 'text';
            i += 2;
          }
          break;
        case 'rawText':
          if (chunk.slice(i, i + 2 + this.tagName.length).toLowerCase() === `</${this.tagName}`) {
            this.state = 'text';
            continue; // the `<` starts the closing tag
          }
          break;
        case 'tagName':
          if (SPACE.test(c) || c === '/') this.state = 'tag';
          else if (c === '>') this.endTag();
          else this.tagName += c.toLowerCase();
          break;
        case 'tag':
        case 'afterAttrName':
          if (c === '>') this.endTag();
          else if (c === '=' && this.state === 'afterAttrName') this.beginValue();
          else if (!SPACE.test(c) && c !== '/') {
            this.state = 'attrName';
            this.attribute = c.toLowerCase();
          } else if (c === '/') this.state = 'tag';
          break;
        case 'attrName':
          if (c === '=') this.beginValue();
          else if (c === '>') this.endTag();
          else if (c === '/') this.state = 'tag';
          else if (SPACE.test(c)) this.state = 'afterAttrName';
          else this.attribute += c.toLowerCase();
          break;
        case 'beforeValue':
          if (c === '"') this.state = 'doubleQuoted';
          else if (c === "'") this.state = 'singleQuoted';
          else if (c === '>') this.endTag();
          else if (!SPACE.test(c)) {
            this.state = 'unquoted';
            this.valuePrefix = c;
          }
          break;
        case 'doubleQuoted':
        case 'singleQuoted':
          if (c === (this.state === 'doubleQuoted' ? '"' : "'")) this.state = 'tag';
          else this.valuePrefix += c;
          break;
        case 'unquoted':
          if (SPACE.test(c)) this.state = 'tag';
          else if (c === '>') this.endTag();
          else this.valuePrefix += c;
          break;
      }
      i += 1;
    }
  }

  /** The context of an interpolation at the current position; the interpolation is then part of the value. */
  interpolate(): SlotContext {
    const inValue =
      this.state === 'beforeValue' || this.state === 'doubleQuoted' || this.state === 'singleQuoted' || this.state === 'unquoted';
    if (!inValue) return { attribute: null, startsValue: false };
    const context = { attribute: this.attribute, startsValue: !this.interpolatedInValue && NOTHING.test(this.valuePrefix) };
    this.interpolatedInValue = true;
    if (this.state === 'beforeValue') this.state = 'unquoted';
    return context;
  }

  private beginValue(): void {
    this.state = 'beforeValue';
    this.valuePrefix = '';
    this.interpolatedInValue = false;
  }

  private endTag(): void {
    this.state = !this.closing && RAW_TEXT_ELEMENTS.has(this.tagName) ? 'rawText' : 'text';
  }
}

const cache = new WeakMap<TemplateStringsArray, SlotContext[]>();

/** The context of every interpolation of a template; computed once per call site (the array is reused). */
export function slotContexts(strings: TemplateStringsArray): SlotContext[] {
  let contexts = cache.get(strings);
  if (!contexts) {
    const scanner = new Scanner();
    contexts = [];
    strings.forEach((chunk, index) => {
      scanner.feed(chunk);
      if (index < strings.length - 1) contexts?.push(scanner.interpolate());
    });
    cache.set(strings, contexts);
  }
  return contexts;
}
