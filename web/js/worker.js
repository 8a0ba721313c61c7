// A second copy of the engine in a worker, for the operations that take
// seconds (seeded trials with exact scheme rates), so the page keeps
// answering while they run. Messages: {id, op, request} -> {id, report}.
import createModule from './bloomlab.mjs';

const ready = createModule();

// A failure is answered as a report with an error, so the page never waits.
self.onmessage = async (e) => {
  const { id, op, request } = e.data;
  try {
    const engine = await ready;
    self.postMessage({ id, report: JSON.parse(engine.run(op, JSON.stringify(request))) });
  } catch (err) {
    const why = err && err.message ? err.message : String(err);
    self.postMessage({ id, report: { error: { field: null, value: '', message: `The lab's background engine failed (${why}), so this could not be computed. Reload the page to try again.` } } });
  }
};
