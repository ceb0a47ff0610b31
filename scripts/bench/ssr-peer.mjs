// The SSR peer of `make bench`: the store's own server bundle rendering the same input on every
// request (no cache), the page wrapped with the same stylesheet and state, compressed with Node's
// zlib at the levels the store uses (brotli 5, gzip 6), served by Node's http in a 2-worker
// cluster. Usage: node ssr-peer.mjs BUNDLE INPUT-JSON CSS PORT
import cluster from 'node:cluster';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import zlib from 'node:zlib';

const [, , bundle, inputFile, cssFile, port] = process.argv;

if (cluster.isPrimary) {
  let ready = 0;
  for (let i = 0; i < 2; i++) {
    cluster.fork().on('message', () => {
      if (++ready === 2) console.log('ready');
    });
  }
} else {
  vm.runInThisContext(readFileSync(bundle, 'utf8'));
  const render = globalThis.render;
  const input = readFileSync(inputFile, 'utf8');
  const css = readFileSync(cssFile, 'utf8');
  const state = input.replace(/</g, '\\u003c');
  http
    .createServer((req, res) => {
      const out = JSON.parse(render(input));
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${out.head.title ?? ''}</title><style>${css}</style></head><body><div id="root">${out.html}</div><script type="application/json" id="__STATE__">${state}</script></body></html>`;
      const accept = req.headers['accept-encoding'] ?? '';
      const headers = { 'content-type': 'text/html; charset=utf-8', vary: 'Accept-Encoding' };
      let body = Buffer.from(html);
      if (/\bbr\b/.test(accept)) {
        body = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
        headers['content-encoding'] = 'br';
      } else if (/\bgzip\b/.test(accept)) {
        body = zlib.gzipSync(body, { level: 6 });
        headers['content-encoding'] = 'gzip';
      }
      headers['content-length'] = body.length;
      res.writeHead(200, headers);
      res.end(body);
    })
    .listen(Number(port), '127.0.0.1', () => process.send('up'));
}
