// prov-query's SPARQL engine driver: runs one SPARQL 1.1 query with Oxigraph's JavaScript bindings
// (its Rust query engine compiled to WebAssembly) over a graph prov-query streams in. prov-query
// embeds this file and starts it as `node -e SCRIPT MODULE_DIR` (tools/query/oxigraph.cc).
//
//   stdin    the query's length in bytes, a newline, the query, then the graph as N-Triples
//   stdout   first which triples the query can match (below), then the answer: SELECT / ASK:
//            SPARQL Query Results XML; CONSTRUCT / DESCRIBE: N-Triples
//   stderr   on failure, one line: the engine's message; exit 3 for a query the engine refuses
//            (before any of the graph is read), 4 for anything else (a graph larger than the
//            engine's memory says so)
//
// Which triples: "all\n", or "only N\n" and N lines, each the IRI of a predicate; then only the
// triples with one of these predicates can change the answer, and prov-query sends no others
// (why that is exact: predicates() below and docs/sparql.md, "Loading only what the query can
// match"). prov-query waits for these lines before it reads the graph, and reads only those
// triples when that gives the same answer.
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

// Reads fd 0 onto `have` until `enough(buffer)` (or EOF); returns the buffer.
function readUntil(have, enough) {
  const buf = Buffer.alloc(1 << 16);
  while (!enough(have)) {
    const got = fs.readSync(0, buf, 0, buf.length, null);
    if (got === 0) break;
    have = Buffer.concat([have, buf.subarray(0, got)]);
  }
  return have;
}

function writeAll(text) {
  const out = Buffer.from(text, 'utf8');
  for (let off = 0; off < out.length;) off += fs.writeSync(1, out, off, out.length - off);
}

// Can `path` (a sparqljs property path) match a path of length zero? Such a path matches (x, x)
// for every node x of the graph (SPARQL 1.1, 18.4; Oxigraph also for a constant x), so its answer
// depends on every triple.
function nullable(p) {
  if (p.termType) return false;
  switch (p.pathType) {
    case '*': case '?': return true;
    case '/': return p.items.every(nullable);
    case '|': return p.items.some(nullable);
    case '!': return false;
    default: return nullable(p.items[0]);  // '+', '^'
  }
}

// The predicates whose triples the query can match, or null for "any triple may matter". A
// query reads the graph only through its triple patterns and property paths (in WHERE, OPTIONAL,
// UNION, MINUS, GRAPH, subqueries, EXISTS / NOT EXISTS); a pattern whose predicate is an IRI
// matches only triples with that predicate, and a path made of IRIs (sequence, alternative,
// inverse, one-or-more) only triples with one of its IRIs. Any triple may matter for a variable
// predicate, a negated property set (!p), a path that may be empty (p*, p?: every node of the
// graph), DESCRIBE (the description of a resource is its triples, whatever their predicates) and
// anything sparqljs does not parse as a query.
function predicates(parser, query) {
  let parsed;
  try {
    parsed = parser.parse(query);
  } catch (e) {
    return null;
  }
  if (parsed.type !== 'query' || parsed.queryType === 'DESCRIBE') return null;
  const found = new Set();
  const addPath = (p) => {
    if (p.termType === 'NamedNode') return found.add(p.value), true;
    if (p.termType || p.pathType === '!') return false;
    return p.items.every(addPath);
  };
  const walk = (node) => {
    if (Array.isArray(node)) return node.every(walk);
    if (node === null || typeof node !== 'object') return true;
    if (node.subject && node.predicate && node.object) {
      if (node.predicate.type === 'path' && nullable(node.predicate)) return false;
      return addPath(node.predicate) && walk(node.subject) && walk(node.object);
    }
    // A CONSTRUCT template is written, not matched; everything else is walked.
    return Object.keys(node).every((k) => (node === parsed && k === 'template') || walk(node[k]));
  };
  if (!walk(parsed)) return null;
  // An IRI that cannot stand on a line of its own, or a relative one, is left to the engine.
  for (const iri of found) if (/[\x00-\x20]/.test(iri) || !iri.includes(':')) return null;
  return [...found];
}

// The engine's memory is WebAssembly's, at most 4 GiB: a store that needs more makes its
// allocator fail, which traps ("unreachable") or fails to grow the memory.
function outOfMemory(e) {
  return e instanceof RangeError || /unreachable|memory/i.test(String(e && e.message));
}

function tooLarge(bytes) {
  const what = only ? `the ${only.length} predicates the query can match` :
    'every triple (the query does not name its predicates: a variable predicate, !p, p* or DESCRIBE)';
  return `the graph does not fit the engine: Oxigraph's WebAssembly memory (at most 4 GiB) ran out ` +
    `after ${(bytes / 1e6).toFixed(0)} MB of N-Triples, loading ${what}; ask a SPARQL server ` +
    '(--endpoint) for a graph this large';
}

const modules = process.argv[process.argv.length - 1];
let ox;
let sparqljs;
try {
  ox = require(path.join(modules, 'oxigraph'));
  sparqljs = require(path.join(modules, 'sparqljs'));
} catch (e) {
  fail(4, `cannot load the SPARQL engine's JavaScript packages: ${e.message}`);
}

// The header: length, newline, query.
// (prov-query sends nothing more until it has read which triples to send.)
let input = readUntil(Buffer.alloc(0), (b) => b.indexOf(10) >= 0);
const eol = input.indexOf(10);
if (eol < 0) fail(4, 'no query header on standard input');
const length = Number(input.subarray(0, eol).toString());
input = readUntil(input.subarray(eol + 1), (b) => b.length >= length);
const query = input.subarray(0, length).toString('utf8');
const rest = input.subarray(length);

// Which results syntax the query's form takes: Oxigraph refuses a results format for a graph.
let format = 'application/sparql-results+xml';
try {
  new ox.Store().query(query, { results_format: format });
} catch (e) {
  if (!/RDF format/.test(String(e.message))) fail(3, e.message || e);
  format = 'application/n-triples';
}

const only = predicates(new sparqljs.Parser(), query);
writeAll(only ? `only ${only.length}\n${only.map((iri) => `${iri}\n`).join('')}` : 'all\n');

// The graph, in whole lines per load() call: one transaction per chunk keeps the store's own
// bulk path (a single load() of an iterable with no_transaction measured ten times slower).
// lenient: the terms are prov-query's canonical N-Triples, already checked when the graph was
// read, so the engine's own checks of IRIs and language tags are skipped (a quarter of its
// loading time; docs/sparql.md).
const store = new ox.Store();
let buf = Buffer.alloc(Math.max(kChunk, rest.length));
rest.copy(buf);
let have = rest.length;
let loaded = 0;  // bytes of N-Triples in the store
for (;;) {
  // A pipe gives at most its capacity per read: fill the chunk first (a load() per read measured
  // twice the loading time at 1 M triples).
  const got = fs.readSync(0, buf, have, buf.length - have, null);
  have += got;
  if (got > 0 && have < buf.length) continue;
  const end = got > 0 ? buf.lastIndexOf(10, have - 1) + 1 : have;
  if (end > 0) {
    try {
      store.load(buf.subarray(0, end), { format: 'application/n-triples', lenient: true });
    } catch (e) {
      fail(4, outOfMemory(e) ? tooLarge(loaded) : `the graph: ${e.message || e}`);
    }
    loaded += end;
  }
  if (got === 0) break;
  if (end === 0) {  // one line longer than the chunk
    const longer = Buffer.alloc(buf.length * 2);
    buf.copy(longer);
    buf = longer;
  } else {
    buf.copy(buf, 0, end, have);
    have -= end;
  }
}

let answer;
try {
  answer = store.query(query, { results_format: format });
} catch (e) {
  fail(4, outOfMemory(e) ? 'the engine ran out of memory answering the query (Oxigraph\'s WebAssembly ' +
    'memory ends at 4 GiB)' : e.message || e);
}
writeAll(String(answer));
