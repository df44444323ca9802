import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptsEncoding } from '../../src/http/accept-encoding.js';

// Pages and assets are gzipped only for a client that accepts gzip: q=0 means "not acceptable".
describe('Accept-Encoding', () => {
  it('a listed coding with q above 0 is accepted', () => {
    assert.equal(acceptsEncoding('gzip', 'gzip'), true);
    assert.equal(acceptsEncoding('br, gzip;q=0.5', 'gzip'), true);
    assert.equal(acceptsEncoding('GZIP ; Q=1.0', 'gzip'), true);
    assert.equal(acceptsEncoding('x-gzip', 'gzip'), true);
  });

  it('q=0 refuses it, whatever its spelling', () => {
    assert.equal(acceptsEncoding('gzip;q=0', 'gzip'), false);
    assert.equal(acceptsEncoding('br, gzip; q=0.000', 'gzip'), false);
    assert.equal(acceptsEncoding('*, gzip;q=0', 'gzip'), false);
    assert.equal(acceptsEncoding('gzip;q=nonsense', 'gzip'), false);
  });

  it('an unlisted coding follows *; nothing or no header accepts nothing', () => {
    assert.equal(acceptsEncoding('*', 'gzip'), true);
    assert.equal(acceptsEncoding('br, *;q=0', 'gzip'), false);
    assert.equal(acceptsEncoding('identity', 'gzip'), false);
    assert.equal(acceptsEncoding('gzipped-not', 'gzip'), false);
    assert.equal(acceptsEncoding(undefined, 'gzip'), false);
    assert.equal(acceptsEncoding(['br', 'gzip'], 'gzip'), true);
  });
});
