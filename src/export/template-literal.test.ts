import { App, TerraformOutput, TerraformStack, Testing, Token } from 'cdktf';
import fc from 'fast-check';
import { evaluateTemplate, toJson } from '../expressions';
import { cdktfTemplateLiteral, literalValues, templateLiteral } from './template-literal';

/** The value Terraform gives a configuration string (tenantform's template evaluator, checked against terraform's in test/expressions). */
function templateValue(source: string): unknown {
  const result = evaluateTemplate(source, { variables: {} });
  if ('problem' in result) throw new Error(`${JSON.stringify(source)}: ${result.problem.message}`);
  return JSON.parse(toJson(result.value));
}

/** Names an administrator may give anything the export writes. */
const HOSTILE = [
  '${file("/proc/self/environ")}',
  'Unit ${tenantform_api_client.mon.client_secret} east',
  '%{ for e in ["a"] }${e}%{ endfor }',
  '$${already escaped}',
  '$$${three}',
  '%%{and} %%%{more}',
  'ends with $',
  'ends with %',
  '$',
  '${',
  '}${}{',
];

describe('platform text as a literal', () => {
  it('is the text itself when Terraform reads it as a template', () => {
    for (const text of HOSTILE) expect(templateValue(templateLiteral(text))).toBe(text);
    expect(templateLiteral('no template here, $5 and 10% {ok}')).toBe('no template here, $5 and 10% {ok}');
  });

  it('is the text itself for any text', () => {
    const text = fc.stringMatching(/^[${}%a"\\e1+-]*$/).map((s) => s.normalize('NFC'));
    fc.assert(
      fc.property(text, (s) => {
        expect(templateValue(templateLiteral(s))).toBe(s);
        expect(templateValue(cdktfTemplateLiteral(s))).toBe(s);
      }),
      { numRuns: 2_000 },
    );
  });

  it('makes every string and object key of a value a literal', () => {
    expect(literalValues({ name: '${x}', nested: [{ '%{k}': '${y}' }], n: 1, none: null }, templateLiteral)).toEqual({
      name: '$${x}',
      nested: [{ '%%{k}': '$${y}' }],
      n: 1,
      none: null,
    });
  });
});

describe('platform text in a cdktf app', () => {
  /** What `cdktf synth` writes for a value of the app. */
  function synthesized(value: unknown): unknown {
    const stack = new TerraformStack(new App({ outdir: '/nonexistent' }), 'export');
    new TerraformOutput(stack, 'exported', { value });
    return (JSON.parse(Testing.synth(stack)) as { output: { exported: { value: unknown } } }).output.exported.value;
  }

  it("is never taken for one of cdktf's tokens: string, list, map and number tokens stay text", () => {
    const secret = 'SECRET-VALUE';
    const tokens = {
      string: Token.asString({ resolve: () => secret }),
      list: Token.asList({ resolve: () => [secret] })[0],
      map: Token.asString(Token.asStringMap({ resolve: () => ({ k: secret }) })),
      number: String(Token.asNumber({ resolve: () => 424242 })),
    };
    for (const [kind, marker] of Object.entries(tokens)) {
      for (const text of [marker, `name ${marker} end`, `$${marker}`, `${marker}${marker}`]) {
        const written = cdktfTemplateLiteral(text);
        const out = synthesized(written);
        expect({ kind, out: JSON.stringify(out) }).not.toEqual({ kind, out: expect.stringMatching(/SECRET-VALUE|424242/) });
        expect({ kind, value: templateValue(out as string) }).toEqual({ kind, value: text });
        // As a one-element list too: cdktf reads such a list as a list token.
        expect(synthesized([written])).toEqual([written]);
        // And as an object key.
        expect(Object.keys(synthesized({ [written]: 1 }) as object)).toEqual([written]);
      }
    }
  });

  it('leaves ordinary text alone', () => {
    for (const text of ['Acme Manufacturing', 'v1e5 build 2e10', 'a-1.5e+3 z', '#{not a token}', '${x}']) {
      const written = cdktfTemplateLiteral(text);
      expect(synthesized(written)).toBe(written);
      expect(templateValue(written)).toBe(text);
    }
    expect(cdktfTemplateLiteral('v1e5 build')).toBe('v1e5 build');
  });
});
