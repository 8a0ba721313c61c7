// A text packed small enough for a link: deflate-raw (the browser's own
// CompressionStream), then base64url, so it survives in a URL's query
// string as it is. Display only: nothing here is a figure of the lab.
async function through(stream, bytes) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export async function pack(text) {
  const bytes = await through(new CompressionStream('deflate-raw'), new TextEncoder().encode(text));
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// Throws when the value is not a packed text (cut short, or typed by hand).
export async function unpack(value) {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw new Error('it holds characters a packed list never has');
  const bin = atob(value.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (value.length % 4)) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await through(new DecompressionStream('deflate-raw'), bytes));
  } catch {
    throw new Error('it could not be unpacked; the link may have been cut short');
  }
}
