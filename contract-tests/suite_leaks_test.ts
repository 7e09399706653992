/**
 * The suite's own test of what a failing run leaves behind. A service that
 * fails the suite at the worst moments — a wrong password answered with a
 * token (a probe's answer is recorded), "Copy token value" copying another
 * value than the new token on screen (a UI test fails while the token shows,
 * unread) — is checked as a live target; then every file the run wrote
 * (reports, blob, artifacts, archives unpacked) and everything it printed is
 * searched for every token that service issued, and for the password. A
 * failed attempt that could not revoke its token leaves it to the retry.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { parseRunTokenName, runTokenName } from '../src/auth_ui/run_tokens.ts';
import { startSandbox } from '../src/sandbox/mod.ts';
import { EARLIER_LOGIN, savedLoginPath } from './paths.ts';
import { runSuite } from './run_suite.ts';

test('a run failing at the worst moments leaves no issued token and no password in any file or output; every file is private', async () => {
  const issued: string[] = [];
  const service = await startSandbox({ testMode: true, password: 'Leak-Pa55 +&%', onIssue: (value) => issued.push(value) });
  try {
    service.store.setViolations(['token-for-wrong-password', 'copy-mismatch']);
    const run = await runSuite(['--project', 'api', '--project', 'ui', '--retries=0'], { live: service.env });
    assert.notEqual(run.exitCode, 0, 'the suite caught both violations');
    const failed = new Set(run.clauses);
    assert.ok(failed.has('auth-contract 4.1 request fields'), `a wrong password answered with a token fails 4.1: ${[...failed]}`);
    assert.ok(failed.has('auth-contract 5.3 creating steps 1-8'), `a copy of another value fails 5.3: ${[...failed]}`);
    assert.match(run.report, /screenshot.*not taken: a new token was on screen, not yet read/, 'no screenshot of an unread token');
    assert.ok(issued.filter((t) => t.length > 0).length > 10, `tokens were issued (${issued.length})`);
    assert.ok(run.written.length > 10, `the run wrote its reports (${run.written.map((f) => f.path).join(', ')})`);
    for (const file of [...run.written, { path: '(output)', text: run.output, mode: 0 }]) {
      for (const token of issued) assert.ok(!file.text.includes(token), `an issued token is in ${file.path}`);
      for (const form of [service.env.SLICER_PASSWORD, encodeURIComponent(service.env.SLICER_PASSWORD)]) {
        assert.ok(!file.text.includes(form), `the password is in ${file.path}`);
      }
    }
    const open = run.written.filter((file) => (file.mode & 0o077) !== 0).map((file) => `${file.path} ${(file.mode & 0o777).toString(8)}`);
    assert.deepEqual(open, [], "every file and folder the run wrote is its owner's only");
  } finally {
    await service.close();
  }
});

test("a retry revokes the token a failed attempt left active, and neither another test's nor another run's", async () => {
  // UI variant 3 lists its tokens in boxes of no table or list: the names are found by their text.
  const service = await startSandbox({ testMode: true, uiVariant: 3, password: 'Retry-Pa55 +&%' });
  try {
    const user = service.env.SLICER_USERNAME;
    const now = new Date();
    const others = [runTokenName('retry-run', now, 'zzzzzz another test'), runTokenName('another-run', now, 'zzzzzz a test')];
    for (const name of others) service.store.issuePermanent(user, name, [service.env.SLICER_SERVICE_ID]);
    // The first Revoke answers 503: the attempt whose teardown meets it cannot revoke its token, and fails.
    service.store.addFault({ at: 'revoke', status: 503, times: 1 });
    // With a second test of the same file, whose token names must carry another tag.
    const run = await runSuite(['--project', 'ui', '--grep', 'Cancel keeps the token working|HTML special characters'], {
      live: { ...service.env, SLICER_CONTRACT_RUN_ID: 'retry-run' },
    });
    assert.equal(run.exitCode, 0, `the retry passes: ${run.messages}`);
    assert.match(run.retried, /^[^\n]+: .*Revoke, then OK leaves its entry active/, 'the attempt that met the 503 was retried');
    const permanent = service.store.list(user, 'permanent');
    assert.equal(permanent.length, 5, 'each attempt created its token');
    const tags = (label: string) =>
      new Set(permanent.map((t) => parseRunTokenName(t.name)?.label).filter((l) => l?.endsWith(label)).map((l) => l?.split(' ')[0]));
    assert.equal(tags('cancel').size, 1, 'both attempts of a test tag their tokens alike');
    assert.equal(tags('</script>').size, 1);
    assert.notDeepEqual(tags('cancel'), tags('</script>'), 'two tests of one file tag their tokens apart');
    assert.deepEqual(
      permanent.filter((t) => t.revokedAt === undefined).map((t) => t.name).sort(),
      others.sort(),
      "both attempts' are revoked",
    );
  } finally {
    await service.close();
  }
});

test("the run's saved browser login is used by the UI tests and removed at the end; one an earlier version left in clear is gone", async () => {
  // As an earlier version left it: in clear, readable by every local user, its owner noted beside it.
  mkdirSync(dirname(EARLIER_LOGIN), { recursive: true });
  writeFileSync(EARLIER_LOGIN, '{"cookies":[],"origins":[]}', { mode: 0o644 });
  writeFileSync(`${EARLIER_LOGIN}.meta.json`, 'an earlier version');
  const service = await startSandbox({ testMode: true, password: 'Login-Pa55 +&%' });
  try {
    const run = await runSuite(['--project', 'setup', '--project', 'ui', '--grep', 'Cancel keeps the token working', '--retries=0'], {
      live: { ...service.env, SLICER_CONTRACT_RUN_ID: 'login-run' },
    });
    assert.equal(run.exitCode, 0, run.output);
    assert.equal(service.store.sessionsOf(service.env.SLICER_USERNAME).length, 1, 'the UI test started logged in: one login in all');
    const left = [savedLoginPath('login-run'), EARLIER_LOGIN, `${EARLIER_LOGIN}.meta.json`].filter((path) => existsSync(path));
    assert.deepEqual(left, []);
  } finally {
    await service.close();
  }
});
