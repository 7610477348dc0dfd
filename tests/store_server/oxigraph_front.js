// A second SPARQL 1.1 server for the store-server tests, beside Virtuoso: Oxigraph's query engine
// (its JavaScript bindings, a real SPARQL 1.1 Query and Update implementation in WebAssembly) behind
// this small HTTP front, which speaks the two W3C protocols provio uses, with the endpoint layout of
// Apache Jena Fuseki (/DATASET/query, /DATASET/update, /DATASET/data):
//   SPARQL 1.1 Protocol         GET or POST query= (form or application/sparql-query body) with
//                               default-graph-uri / named-graph-uri; POST update=
//   Graph Store HTTP Protocol   GET, PUT, POST, DELETE, HEAD on data?graph=IRI (or ?default)
// The store is in memory; one request runs at a time (node's event loop), so each is atomic.
//
//   node oxigraph_front.js PORT_FILE [DATASET]    listens on a free localhost port, written to PORT_FILE
'use strict';
const fs = require('fs');
const http = require('http');
const ox = require('oxigraph');

const [portFile, dataset = 'ds'] = process.argv.slice(2);
const store = new ox.Store();

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// The RDF syntaxes a graph body may have, by media type.
const kRdfTypes = new Set(['text/turtle', 'application/n-triples', 'text/plain', 'application/rdf+xml',
  'application/ld+json']);

function mediaType(header) {
  return (header || '').split(';')[0].trim().toLowerCase();
}

// The result syntax for a query, from the Accept header: provio asks for XML results and N-Triples.
function resultFormat(accept, isGraph) {
  const wanted = (accept || '').toLowerCase();
  if (isGraph) return wanted.includes('text/turtle') ? 'text/turtle' : 'application/n-triples';
  if (wanted.includes('application/sparql-results+json')) return 'application/sparql-results+json';
  if (wanted.includes('text/csv')) return 'text/csv';
  return 'application/sparql-results+xml';
}

// SELECT, ASK, CONSTRUCT or DESCRIBE: the first keyword after the prologue (IRIs blanked first:
// they may hold '#').
function queryForm(text) {
  const m = text.replace(/<[^>]*>/g, '<>').replace(/#[^\n]*/g, '')
    .replace(/(PREFIX\s+[^\s:]*:|BASE)\s*<>/gi, '').match(/[A-Za-z]+/);
  return m ? m[0].toUpperCase() : '';
}

function runQuery(params, accept) {
  const text = params.get('query');
  if (!text) throw new HttpError(400, 'no query');
  const options = {};
  const defaults = params.getAll('default-graph-uri');
  const named = params.getAll('named-graph-uri');
  if (defaults.length) options.default_graph = defaults.map((g) => ox.namedNode(g));
  else options.use_default_graph_as_union = true;  // as Virtuoso and Fuseki's unionDefaultGraph
  if (named.length) options.named_graphs = named.map((g) => ox.namedNode(g));
  const form = queryForm(text);
  const type = resultFormat(accept, form === 'CONSTRUCT' || form === 'DESCRIBE');
  options.results_format = type;
  return { type, body: store.query(text, options) };
}

function graphOf(params) {
  if (params.has('default')) return ox.defaultGraph();
  const g = params.get('graph');
  if (!g) throw new HttpError(400, 'give ?graph=IRI or ?default');
  return ox.namedNode(g);
}

function graphSize(graph) {
  return store.match(null, null, null, graph).length;
}

// Parses the body on its own first: a body with an error changes nothing (the protocol's PUT and
// POST are all or nothing).
function parsed(body, type, graph) {
  if (!kRdfTypes.has(type)) throw new HttpError(415, `unsupported media type ${type}`);
  const check = new ox.Store();
  check.load(body, { format: type === 'text/plain' ? 'application/n-triples' : type, to_graph_name: graph });
  return check.match();
}

function graphStore(method, params, req, body) {
  const graph = graphOf(params);
  const existed = graphSize(graph) > 0;
  switch (method) {
    case 'GET':
    case 'HEAD': {
      if (!existed) throw new HttpError(404, 'no such graph');
      const type = resultFormat(req.headers.accept, true);
      return { status: 200, type, body: method === 'HEAD' ? '' : store.dump({ format: type, from_graph_name: graph }) };
    }
    case 'PUT':
    case 'POST': {
      const quads = parsed(body, mediaType(req.headers['content-type']), graph);
      if (method === 'PUT') for (const q of store.match(null, null, null, graph)) store.delete(q);
      for (const q of quads) store.add(q);
      return { status: existed ? 204 : 201 };
    }
    case 'DELETE':
      if (!existed) throw new HttpError(404, 'no such graph');
      for (const q of store.match(null, null, null, graph)) store.delete(q);
      return { status: 204 };
    default:
      throw new HttpError(405, `${method} not allowed`);
  }
}

// The parameters of a protocol request: the URL's, plus a form body's, plus a direct body's.
function paramsOf(url, req, body) {
  const params = new URLSearchParams(url.search);
  const type = mediaType(req.headers['content-type']);
  if (req.method === 'POST' && type === 'application/x-www-form-urlencoded') {
    for (const [k, v] of new URLSearchParams(body)) params.append(k, v);
  } else if (req.method === 'POST' && type === 'application/sparql-query') {
    params.set('query', body);
  } else if (req.method === 'POST' && type === 'application/sparql-update') {
    params.set('update', body);
  }
  return params;
}

function handle(req, body) {
  const url = new URL(req.url, 'http://localhost');
  const params = paramsOf(url, req, body);
  switch (url.pathname) {
    case `/${dataset}/query`:
    case `/${dataset}/sparql`: {
      if (req.method !== 'GET' && req.method !== 'POST') throw new HttpError(405, `${req.method} not allowed`);
      const r = runQuery(params, req.headers.accept);
      return { status: 200, type: r.type, body: typeof r.body === 'string' ? r.body : String(r.body) };
    }
    case `/${dataset}/update`: {
      if (req.method !== 'POST') throw new HttpError(405, 'updates are POSTed');
      const text = params.get('update');
      if (!text) throw new HttpError(400, 'no update');
      store.update(text);
      return { status: 204 };
    }
    case `/${dataset}/data`:
      return graphStore(req.method, params, req, body);
    default:
      throw new HttpError(404, `no service at ${url.pathname}`);
  }
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let r;
    try {
      r = handle(req, body);
    } catch (e) {
      // Oxigraph's own errors are syntax errors in what the client sent.
      r = { status: e.status || 400, type: 'text/plain', body: `${e.message || e}\n` };
      // The log (stdout.log in the server's directory) shows what was refused, to debug a test.
      console.log(`${req.method} ${req.url} ${r.status}: ${r.body.trim()}\n  ${body.slice(0, 2000)}`);
    }
    res.writeHead(r.status, r.type ? { 'Content-Type': `${r.type}; charset=utf-8` } : {});
    res.end(r.body || '');
  });
});
server.listen(0, '127.0.0.1', () => fs.writeFileSync(portFile, String(server.address().port)));
