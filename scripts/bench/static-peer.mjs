// The static-file peer of `make bench`: a minimal Node http server answering every request with
// the same bytes from memory. Usage: node static-peer.mjs FILE PORT CONTENT-TYPE
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [, , file, port, type] = process.argv;
const body = readFileSync(file);
http
  .createServer((req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => console.log('ready'));
