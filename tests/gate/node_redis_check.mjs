// node-redis (npm `redis`, with @redis/bloom) against the gate's Redis port:
// reserve, add, mAdd, exists, mExists, info, card, an error, a cuckoo
// filter of bucket size 4 and CF.COMPACT, and RESP3.
// Run by GateResp.NodeRedisBloomClient with the port.
import assert from 'node:assert/strict';
import { createClient } from 'redis';

const port = Number(process.argv[2]);

async function main() {
  const client = createClient({ socket: { host: '127.0.0.1', port } });
  client.on('error', (e) => { throw e; });
  await client.connect();
  assert.equal(await client.ping(), 'PONG');
  assert.equal(await client.bf.reserve('node', 0.01, 1000), 'OK');
  assert.equal(await client.bf.add('node', 'alice'), true);
  assert.equal(await client.bf.add('node', 'alice'), false);
  assert.deepEqual(await client.bf.mAdd('node', ['bob', 'carol']), [true, true]);
  assert.equal(await client.bf.exists('node', 'bob'), true);
  assert.equal(await client.bf.exists('node', 'dave'), false);
  assert.deepEqual(await client.bf.mExists('node', ['alice', 'dave']), [true, false]);
  const info = await client.bf.info('node');
  assert.equal(info['Capacity'], 1000);
  assert.equal(info['Number of items inserted'], 3);
  assert.equal(info['Number of filters'], 1);
  assert.equal(await client.bf.card('node'), 3);
  await assert.rejects(client.bf.reserve('node', 0.01, 10), /item exists/);
  // Cuckoo: BUCKETSIZE through the client's reserve options; CF.COMPACT,
  // which @redis/bloom has no method for, as a plain command.
  assert.equal(await client.cf.reserve('nodecf', 64, { BUCKETSIZE: 4, EXPANSION: 1 }), 'OK');
  const items = Array.from({ length: 300 }, (_, i) => `c${i}`);
  assert.deepEqual(await client.cf.insert('nodecf', items), items.map(() => true));
  const cfInfo = await client.cf.info('nodecf');
  assert.equal(cfInfo['Bucket size'], 4);
  assert.equal(cfInfo['Number of buckets'], 16);
  assert.ok(cfInfo['Number of filters'] > 1);
  assert.equal(await client.cf.del('nodecf', 'c0'), true);
  assert.equal(await client.sendCommand(['CF.COMPACT', 'nodecf']), 'OK');
  assert.equal((await client.cf.info('nodecf'))['Number of items deleted'], 0);
  assert.equal(await client.cf.count('nodecf', 'c1'), 1);
  await client.quit();

  const resp3 = createClient({ socket: { host: '127.0.0.1', port }, RESP: 3 });
  await resp3.connect();
  assert.equal(await resp3.bf.exists('node', 'carol'), true);
  assert.equal(await resp3.bf.exists('node', 'erin'), false);
  await resp3.quit();
  console.log('node-redis: all checks passed');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
