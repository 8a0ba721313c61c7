// Section 10's worker: real SQLite (sqlite-wasm, in memory) beside the
// engine. The engine draws the banned keys and the requests (gate_sim) and
// keeps the gate's filter (GateFilter); this worker puts the keys in a
// table, asks the database about every request with and without the
// filter in front, times both, and sends the unban orders through the
// database before asking the engine what they did to the filter
// (gate_unban). It counts the database's answers and measures time; every
// other number is the engine's.
//
// Message in: { request } (gate_sim's fields). Out, in order: any number
// of { progress: { step, done, total } }, then { result } or
// { error: { field, value, message } }.
import createModule from './bloomlab.mjs';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

const ready = Promise.all([createModule(), sqlite3InitModule()]);

// Rows and queries between progress messages and time readings.
const chunk = 5000;

function progress(step, done, total) {
  self.postMessage({ progress: { step, done, total } });
}

// Runs body(i) for i in [0, total) in chunks, reporting progress between
// them; returns the milliseconds spent in body alone.
function timed(step, total, body) {
  let ms = 0;
  for (let from = 0; from < total; from += chunk) {
    const to = Math.min(total, from + chunk);
    const t0 = performance.now();
    for (let i = from; i < to; i++) body(i);
    ms += performance.now() - t0;
    progress(step, to, total);
  }
  return ms;
}

function keysFile(keys) {
  return new Blob([keys.join('\n') + '\n'], { type: 'text/plain' });
}

function run(engine, sqlite3, request) {
  progress('draw', 0, 1);
  const text = JSON.stringify(request);
  const report = JSON.parse(engine.run('gate_sim', text));
  if (report.error) return { error: report.error };
  const { banned, traffic } = report;

  const db = new sqlite3.oo1.DB(':memory:', 'c');
  const gate = new engine.GateFilter(text);
  try {
    // The table: one key a row, its primary key an index on the text.
    db.exec('create table banned (ip text primary key)');
    db.exec('begin');
    const insert = db.prepare('insert into banned (ip) values (?)');
    const insertMs = timed('insert', banned.length, (i) => {
      insert.bind(1, banned[i]).stepReset();
    });
    insert.finalize();
    db.exec('commit');
    const rows = db.selectValue('select count(*) from banned');

    const ask = db.prepare('select 1 from banned where ip = ?');
    const found = (key) => {
      const hit = ask.bind(1, key).step();
      ask.reset();
      return hit;
    };
    // The database alone: one query a request.
    let aloneFound = 0;
    const aloneMs = timed('alone', traffic.length, (i) => {
      if (found(traffic[i])) aloneFound++;
    });
    // The filter first: a query only for what it answers maybe to.
    let filteredQueries = 0, filteredFound = 0;
    const filteredMs = timed('filtered', traffic.length, (i) => {
      if (!gate.contains(traffic[i])) return;
      filteredQueries++;
      if (found(traffic[i])) filteredFound++;
    });
    if (filteredQueries !== report.maybe.length) {
      throw new Error(`the filter answered maybe ${filteredQueries} times in the timed loop and ${report.maybe.length} times in gate_sim`);
    }

    // Unban orders: the first requests' keys. The database deletes what it
    // holds and says so (changes() is 1 for a row deleted).
    const orders = report.orders;
    const del = db.prepare('delete from banned where ip = ?');
    const confirmed = [];
    timed('unban', orders, (i) => {
      del.bind(1, traffic[i]).stepReset();
      if (db.changes() === 1) confirmed.push(i);
    });
    del.finalize();
    progress('unban-engine', 0, 1);
    const unban = JSON.parse(engine.run('gate_unban', JSON.stringify({ ...request, confirmed })));
    if (unban.error) return { error: unban.error };
    // The keys the hasty gate lost: does the database still hold them?
    let lostHeld = 0;
    for (const key of unban.without_confirmation.lost) if (found(key)) lostHeld++;
    ask.finalize();
    const rowsAfter = db.selectValue('select count(*) from banned');

    return {
      result: {
        report: { ...report, banned: undefined, traffic: undefined, maybe: undefined, maybes: report.maybe.length },
        requests: traffic.length,
        rows,
        rowsAfter,
        insertMs,
        alone: { queries: traffic.length, found: aloneFound, ms: aloneMs },
        filtered: { queries: filteredQueries, found: filteredFound, ms: filteredMs },
        unban,
        confirmed: confirmed.length,
        lostHeld,
        files: { banned: keysFile(banned), traffic: keysFile(traffic) },
        sqlite: sqlite3.version.libVersion,
      },
    };
  } finally {
    gate.delete();
    db.close();
  }
}

self.onmessage = async (e) => {
  try {
    const [engine, sqlite3] = await ready;
    self.postMessage(run(engine, sqlite3, e.data.request));
  } catch (err) {
    const why = err && err.message ? err.message : String(err);
    self.postMessage({ error: { field: null, value: '', message: `The database worker failed (${why}), so this could not be measured. Change an input to try again, or reload the page.` } });
  }
};
