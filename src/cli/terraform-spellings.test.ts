import type { CommandModule } from 'yargs';
import { applyCommand } from './commands/apply';
import { stateCommand } from './commands/state';
import { withDoubleDashes } from './terraform-spellings';

/** A command with options no other command has yet, as Terraform's -var and -lock-timeout. */
const withVariables: CommandModule<unknown, unknown> = {
  command: 'vars',
  describe: 'test command',
  builder: (y) =>
    y
      .option('var', { type: 'string', array: true })
      .option('var-file', { type: 'string' })
      .option('lock-timeout', { type: 'string' })
      .option('lock', { type: 'boolean', default: true }),
  handler: () => undefined,
};

describe("Terraform's single-dash spellings", () => {
  it("reads a boolean option's value as Go's flags do, and refuses any other word", () => {
    expect(withDoubleDashes(['vars', '-lock=0', '--lock=True', '-lock=t'], [withVariables])).toEqual(['vars', '--lock=false', '--lock=true', '--lock=true']);
    expect(() => withDoubleDashes(['vars', '-lock=maybe'], [withVariables])).toThrow('-lock: "maybe" is not a boolean value (true or false).');
    expect(() => withDoubleDashes(['vars', '--lock=yes'], [withVariables])).toThrow('is not a boolean value');
  });

  it('rewrites every single-dash word of two letters or more, with or without a value, and nothing after --', () => {
    const argv = ['vars', '-var', 'a=1', '-var=b=2', '-var-file=x.tfvars', '-lock-timeout=30s', '-lock=false', '-unknown', '-v', '--', '-var'];
    expect(withDoubleDashes(argv, [withVariables])).toEqual([
      'vars',
      '--var',
      'a=1',
      '--var=b=2',
      '--var-file=x.tfvars',
      '--lock-timeout=30s',
      '--lock=false',
      '--unknown',
      '-v',
      '--',
      '-var',
    ]);
  });

  it('rewrites options the command does not declare too, so that yargs refuses them by name', () => {
    expect(withDoubleDashes(['apply', '-detailed-exitcode', '-auto-approve'], [applyCommand as CommandModule<unknown, unknown>])).toEqual([
      'apply',
      '--detailed-exitcode',
      '--auto-approve',
    ]);
  });

  it("takes a subcommand's options from the subcommand (state pull -config=FILE -lock=false)", () => {
    const commands = [stateCommand as CommandModule<unknown, unknown>];
    expect(withDoubleDashes(['state', 'pull', '-config=c.json'], commands)).toEqual(['state', 'pull', '--config=c.json']);
    expect(withDoubleDashes(['state', 'rm', '-lock=false', 'a.b', '-frobnicate'], commands)).toEqual(['state', 'rm', '--lock=false', 'a.b', '--frobnicate']);
  });
});
