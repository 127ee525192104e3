import { elapsedText, ReadProgress } from './read-progress';

function stream(isTTY: boolean): { isTTY: boolean; text: string; write(t: string): void } {
  return {
    isTTY,
    text: '',
    write(t) {
      this.text += t;
    },
  };
}

describe('progress while reading the platform', () => {
  afterEach(() => jest.useRealTimers());

  it('prints Terraform-style elapsed times', () => {
    expect(elapsedText(10_400)).toBe('10s');
    expect(elapsedText(90_000)).toBe('1m30s');
  });

  it('without a terminal: a line per phase and "Still reading..." every interval', () => {
    jest.useFakeTimers();
    const out = stream(false);
    const progress = new ReadProgress(out, 3).start();
    progress.objectRead();
    jest.advanceTimersByTime(10_000);
    progress.objectRead();
    jest.advanceTimersByTime(10_000);
    progress.objectRead();
    progress.finish();
    jest.advanceTimersByTime(30_000);
    expect(out.text.split('\n')).toEqual([
      'Reading 3 objects from the platform...',
      'Still reading... [10s elapsed] (1 of 3 objects read)',
      'Still reading... [20s elapsed] (2 of 3 objects read)',
      expect.stringMatching(/^Read 3 objects in 20\.\ds\.$/),
      '',
    ]);
  });

  it('on a terminal: one line redrawn with the count, cleared at the end', () => {
    const out = stream(true);
    const progress = new ReadProgress(out, 2).start();
    progress.objectRead();
    progress.finish();
    expect(out.text).toBe('\r\x1b[2KReading the platform: 0 of 2 objects read\r\x1b[2KReading the platform: 1 of 2 objects read\r\x1b[2K');
  });
});
