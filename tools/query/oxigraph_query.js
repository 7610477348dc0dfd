// prov-query's SPARQL engine driver: runs one SPARQL 1.1 query with Oxigraph's JavaScript bindings
// (its Rust query engine compiled to WebAssembly) over a graph prov-query streams in. prov-query
// embeds this file and starts it as `node -e SCRIPT MODULE_DIR` (tools/query/oxigraph.cc).
//
//   stdin    the query's length in bytes, a newline, the query, then the graph as N-Triples
//   stdout   SELECT / ASK: SPARQL Query Results XML; CONSTRUCT / DESCRIBE: N-Triples
//   stderr   on failure, one line: the engine's message; exit 3 for a query the engine refuses
//            (before any of the graph is read), 4 for anything else
//
// Hard rule: the query is checked on an empty store before the graph is loaded, so a malformed
// query fails at once, whatever the graph's size.
'use strict';
const fs = require('fs');
const path = require('path');

const kChunk = 1 << 24;  // bytes read per load() call: large, but far below V8's string limit

function fail(code, message) {
  fs.writeSync(2, `${String(message).split('\n')[0]}\n`);
  process.exit(code);
}

// Reads fd 0 until `n` bytes (or EOF) are in `have`; returns the buffer.
function readAtLeast(have, n) {
  const parts = [have];
  let size = have.length;
  const buf = Buffer.alloc(kChunk);
  while (size < n) {
    const got = fs.readSync(0, buf, 0, buf.length, null);
    if (got === 0) break;
    parts.push(Buffer.from(buf.subarray(0, got)));
    size += got;
  }
  return Buffer.concat(parts);
}

let ox;
try {
  ox = require(path.join(process.argv[process.argv.length - 1], 'oxigraph'));
} catch (e) {
  fail(4, `cannot load Oxigraph's JavaScript package: ${e.message}`);
}

// The header: length, newline, query.
let input = readAtLeast(Buffer.alloc(0), 32);
const eol = input.indexOf(10);
if (eol < 0) fail(4, 'no query header on standard input');
const length = Number(input.subarray(0, eol).toString());
input = readAtLeast(input.subarray(eol + 1), length);
const query = input.subarray(0, length).toString('utf8');
let rest = input.subarray(length);

// Which results syntax the query's form takes: Oxigraph refuses a results format for a graph.
let format = 'application/sparql-results+xml';
try {
  new ox.Store().query(query, { results_format: format });
} catch (e) {
  if (!/RDF format/.test(String(e.message))) fail(3, e.message || e);
  format = 'application/n-triples';
}

// The graph, in whole lines per load() call: one transaction per chunk keeps the store's own
// bulk path (a single load() of an iterable with no_transaction measured ten times slower).
const store = new ox.Store();
const buf = Buffer.alloc(kChunk);
for (;;) {
  const got = fs.readSync(0, buf, 0, buf.length, null);
  const data = got > 0 ? Buffer.concat([rest, buf.subarray(0, got)]) : rest;
  const end = got > 0 ? data.lastIndexOf(10) + 1 : data.length;
  if (end > 0) {
    try {
      store.load(data.subarray(0, end), { format: 'application/n-triples' });
    } catch (e) {
      fail(4, `the graph: ${e.message || e}`);
    }
  }
  rest = Buffer.from(data.subarray(end));
  if (got === 0) break;
}

let answer;
try {
  answer = store.query(query, { results_format: format });
} catch (e) {
  fail(4, e.message || e);
}
const out = Buffer.from(String(answer), 'utf8');
for (let off = 0; off < out.length;) off += fs.writeSync(1, out, off, out.length - off);
