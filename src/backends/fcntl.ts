import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * POSIX record locks (fcntl F_SETLK), the lock Terraform's local backend holds on the state
 * file. Node has no binding for fcntl, so a small helper process holds them: Perl, whose core
 * Fcntl module comes with it on macOS and on most Linux systems (Debian's and Ubuntu's base
 * hold it; minimal container images such as Alpine's do not, and there the local backend
 * refuses to lock, see local.ts). The helper reads commands on stdin and exits when stdin
 * closes, so a lock never outlives tenantform, even when it is killed: as with Terraform,
 * a crash leaves no lock behind.
 */
const HELPER = String.raw`
use strict; use Fcntl qw(F_SETLK F_GETLK F_WRLCK F_UNLCK SEEK_SET O_RDWR O_RDONLY O_CREAT);
$| = 1; my %held;
sub region { my ($type) = @_; $^O eq 'darwin' ? pack('qqiss', 0, 0, 0, $type, SEEK_SET) : pack('ssx4qqix4', $type, SEEK_SET, 0, 0, 0) }
sub type_of { my ($s) = @_; $^O eq 'darwin' ? (unpack('qqiss', $s))[3] : (unpack('ssx4qqix4', $s))[0] }
while (my $line = <STDIN>) {
  chomp $line; my ($op, $token, $path) = split / /, $line, 3;
  if ($op eq 'L') {
    my $h; if (!sysopen($h, $path, O_RDWR | O_CREAT, 0600)) { print "err $token $!\n"; next }
    if (fcntl($h, F_SETLK, region(F_WRLCK))) { $held{$token} = $h; print "ok $token\n" } else { close $h; print "busy $token\n" }
  } elsif ($op eq 'T') {
    my $h; if (!sysopen($h, $path, O_RDONLY)) { print "ok $token\n"; next }
    my $s = region(F_WRLCK); if (!fcntl($h, F_GETLK, $s)) { close $h; print "err $token $!\n"; next }
    close $h; print type_of($s) == F_UNLCK ? "ok $token\n" : "busy $token\n";
  } elsif ($op eq 'U') { close(delete $held{$token}) if $held{$token}; print "ok $token\n" }
}
`;

export type FcntlAnswer = 'ok' | 'busy';

export class FcntlLocker {
  private next = 0;
  private readonly waiting = new Map<string, { resolve: (a: FcntlAnswer) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [answer, token, ...rest] = line.split(' ');
      const waiter = this.waiting.get(token);
      this.waiting.delete(token);
      if (answer === 'ok' || answer === 'busy') waiter?.resolve(answer);
      else waiter?.reject(new Error(rest.join(' ')));
    });
    child.once('exit', () => {
      for (const w of this.waiting.values()) w.reject(new Error('the lock helper stopped'));
      this.waiting.clear();
    });
  }

  /** Starts the helper; undefined where Perl cannot run. */
  static async start(): Promise<FcntlLocker | undefined> {
    // Found on the command's PATH (given explicitly: the command may not be its process's only one).
    const child = spawn('perl', ['-e', HELPER], { env: process.env, stdio: ['pipe', 'pipe', 'ignore'] });
    const started = await new Promise<boolean>((resolve) => {
      child.once('spawn', () => resolve(true));
      child.once('error', () => resolve(false));
    });
    if (!started) return undefined;
    return new FcntlLocker(child);
  }

  /** Takes a write lock on the whole file (created when missing); never waits. */
  lock(path: string): Promise<{ answer: FcntlAnswer; token: string }> {
    const token = String(this.next++);
    return this.ask(`L ${token} ${path}`, token).then((answer) => ({ answer, token }));
  }

  /** Whether another process holds a lock on the file, without taking it. */
  test(path: string): Promise<FcntlAnswer> {
    const token = String(this.next++);
    return this.ask(`T ${token} ${path}`, token);
  }

  async unlock(token: string): Promise<void> {
    await this.ask(`U ${token}`, token);
  }

  close(): void {
    this.child.stdin?.end();
  }

  private ask(command: string, token: string): Promise<FcntlAnswer> {
    if (command.includes('\n')) return Promise.reject(new Error('a state path cannot hold a line break'));
    return new Promise((resolve, reject) => {
      this.waiting.set(token, { resolve, reject });
      this.child.stdin!.write(`${command}\n`);
    });
  }
}
