// A second copy of the engine in a worker, for the operations that take
// seconds (seeded trials with exact scheme rates), so the page keeps
// answering while they run. Messages: {id, op, request} -> {id, report}.
import createModule from './bloomlab.mjs';

const ready = createModule();

self.onmessage = async (e) => {
  const { id, op, request } = e.data;
  const engine = await ready;
  self.postMessage({ id, report: JSON.parse(engine.run(op, JSON.stringify(request))) });
};
