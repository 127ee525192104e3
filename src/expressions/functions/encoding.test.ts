import { toPlain, UNKNOWN } from '../index';
import { problemOf, run } from '../testing';

describe('encoding and hashing functions', () => {
  it('writes JSON as Terraform does: keys sorted, sets as arrays, HTML characters escaped', () => {
    expect(run('jsonencode({b = toset(["y", "x"]), a = "<&>", c = 0.5})')).toBe('{"a":"\\u003c\\u0026\\u003e","b":["x","y"],"c":0.5}');
    expect(run('jsonencode(x)', { x: [UNKNOWN] })).toBe(UNKNOWN);
    expect(problemOf('jsonencode(1/0)')).toMatchObject({ code: 'invalid_argument', construct: 'jsonencode' });
  });

  it('reads JSON into values, refusing invalid text and runaway nesting', () => {
    expect(toPlain(run('jsondecode("{\\"a\\": [1, null, true]}")'))).toEqual({ a: [1, null, true] });
    expect(problemOf('jsondecode("{")')).toMatchObject({ code: 'invalid_argument', construct: 'jsondecode' });
    expect(problemOf(`jsondecode("${'['.repeat(300)}${']'.repeat(300)}")`)).toMatchObject({ code: 'invalid_argument' });
  });

  it('encodes and decodes base64 as UTF-8 text', () => {
    expect(run('base64encode("✓")')).toBe('4pyT');
    expect(run('base64decode("4pyT")')).toBe('✓');
    expect(problemOf('base64decode("4py")')).toMatchObject({ code: 'invalid_argument', construct: 'base64decode' });
    expect(problemOf('base64decode("/w==")')).toMatchObject({ code: 'invalid_argument' });
  });

  it('hashes the UTF-8 bytes of the text', () => {
    expect(run('sha256("")')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(run('md5("a")')).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(run('sha1("a")')).toBe('86f7e437faa5a7fce15d1ddcb9eaeaea377667b8');
    expect(run('base64sha256("")')).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });

  it('makes name-based UUIDs from a well-known or explicit namespace', () => {
    expect(run('uuidv5("dns", "www.example.com")')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(run('uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.example.com")')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(problemOf('uuidv5("nope", "x")')).toMatchObject({ code: 'invalid_argument', construct: 'uuidv5' });
  });

  it('encodes URL query text', () => {
    expect(run('urlencode("a b/é")')).toBe('a+b%2F%C3%A9');
  });
});
