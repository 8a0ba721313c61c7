// node-redis (npm `redis`, with @redis/bloom) against the gate's Redis port:
// reserve, add, mAdd, exists, mExists, info, card, an error, and RESP3.
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
