// The two globals React 19's server renderer needs that QuickJS lacks. QuickJS runs Promise jobs
// when the host drains them, so a message is delivered as a microtask.

type Listener = ((ev: { data: unknown }) => void) | null;

class Port {
  onmessage: Listener = null;
  other: Port | null = null;
  postMessage(data: unknown): void {
    const target = this.other;
    Promise.resolve().then(() => target?.onmessage?.({ data }));
  }
  close(): void {
    this.onmessage = null;
  }
}

class MessageChannelPolyfill {
  port1 = new Port();
  port2 = new Port();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}

class TextEncoderPolyfill {
  readonly encoding = 'utf-8';
  encode(input = ''): Uint8Array {
    const out: number[] = [];
    for (let i = 0; i < input.length; i++) {
      let c = input.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < input.length) {
        const d = input.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return new Uint8Array(out);
  }
  encodeInto(input: string, dest: Uint8Array): { read: number; written: number } {
    const bytes = this.encode(input);
    const n = Math.min(bytes.length, dest.length);
    dest.set(bytes.subarray(0, n));
    return { read: input.length, written: n };
  }
}

const g = globalThis as Record<string, unknown>;
if (typeof g.MessageChannel === 'undefined') g.MessageChannel = MessageChannelPolyfill;
if (typeof g.TextEncoder === 'undefined') g.TextEncoder = TextEncoderPolyfill;
