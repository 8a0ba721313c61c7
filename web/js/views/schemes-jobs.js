// Section 4's trials as requests to the engine's `trials` operation. The
// view runs them; the site's build runs those of the default inputs ahead
// (web/build.mjs, answers.js), so the section's first tables need no wait.
export const schemes = [
  ['independent', 'independent hashes'],
  ['double', 'plain double hashing'],
  ['enhanced', 'enhanced double hashing'],
];
// The inputs' defaults, as typed.
export const fields = { n: '100', k: '7', pow: '1024', prime: '1021', seed: '1' };

// Every scheme at the power-of-two m and at the prime m, for the inputs v
// (strings, as typed).
export function comparisonJobs(v) {
  const jobs = [];
  for (const field of ['pow', 'prime'])
    for (const [s, label] of schemes)
      jobs.push({ field, label, request: { m: v[field], n: v.n, k: v.k, filters: 200, probes: 2000, seed: v.seed, hash: 'murmur3', scheme: s } });
  return jobs;
}

// Seed 001's case: 101 bits, 10 keys, k = 7; then 2,003 bits at the same
// ten bits a key. Fixed: no input changes them.
export function smallJobs() {
  const jobs = [];
  for (const [m, n, filters] of [[101, 10, 1000], [2003, 200, 200]])
    for (const [s, label] of schemes)
      jobs.push({ label, m, n, request: { m, n, k: 7, filters, probes: 2000, seed: 7, hash: 'murmur3', scheme: s } });
  return jobs;
}

// The requests the build answers ahead: the defaults' tables.
export function defaultRequests() {
  return [...comparisonJobs(fields), ...smallJobs()].map((job) => ['trials', job.request]);
}
