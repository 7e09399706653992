/**
 * `slicer-auth completion bash|zsh|fish`: a shell completion script for the
 * commands, their actions and options, made from the CLI's command table.
 */
import type { Command } from './commands.ts';
import { type Io, UsageError } from './usage.ts';

/** Help text of the command. */
export const COMPLETION_HELP = `Usage: slicer-auth completion bash|zsh|fish

Prints a completion script for the shell. To install it:
  bash:  slicer-auth completion bash > ~/.local/share/bash-completion/completions/slicer-auth
  zsh:   slicer-auth completion zsh > "\${fpath[1]}/_slicer-auth"
  fish:  slicer-auth completion fish > ~/.config/fish/completions/slicer-auth.fish`;

const flags = (command: Command) => command.options.map((option) => `--${option}`).join(' ');

function bash(commands: Readonly<Record<string, Command>>): string {
  const cases = Object.entries(commands).map(([name, command]) =>
    command.actions
      ? `    ${name}) if [ "$COMP_CWORD" -eq 2 ]; then words="${command.actions.join(' ')}"; else words="${flags(command)}"; fi ;;`
      : `    ${name}) words="${flags(command)}" ;;`
  );
  return [
    '# slicer-auth completion for bash',
    '_slicer_auth() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" words',
    `  if [ "$COMP_CWORD" -eq 1 ]; then words="${Object.keys(commands).join(' ')} --help --version"; else`,
    '  case "${COMP_WORDS[1]}" in',
    ...cases,
    '    *) words="" ;;',
    '  esac; fi',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    'complete -F _slicer_auth slicer-auth',
    '',
  ].join('\n');
}

function fish(commands: Readonly<Record<string, Command>>): string {
  const lines = [`complete -c slicer-auth -f -n __fish_use_subcommand -a '${Object.keys(commands).join(' ')}'`];
  for (const [name, command] of Object.entries(commands)) {
    if (command.actions) {
      lines.push(`complete -c slicer-auth -f -n '__fish_seen_subcommand_from ${name}' -a '${command.actions.join(' ')}'`);
    }
    for (const option of command.options) lines.push(`complete -c slicer-auth -f -n '__fish_seen_subcommand_from ${name}' -l ${option}`);
  }
  return ['# slicer-auth completion for fish', ...lines, ''].join('\n');
}

/**
 * Prints the script.
 *
 * @param args the shell
 * @param io output streams
 * @param commands the CLI's commands (this one included)
 * @returns the exit code
 */
export function completionCommand(args: string[], io: Io, commands: Readonly<Record<string, Command>>): Promise<number> {
  const [shell, ...extra] = args;
  if (extra.length > 0 || (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish')) {
    throw new UsageError(`Name one shell: bash, zsh or fish${shell ? ` (got "${[shell, ...extra].join(' ')}")` : ''}`);
  }
  // zsh runs the bash script through its bash-completion layer.
  const script = shell === 'fish'
    ? fish(commands)
    : shell === 'zsh'
    ? `#compdef slicer-auth\nautoload -U +X bashcompinit && bashcompinit\n${bash(commands)}`
    : bash(commands);
  io.out(script.trimEnd());
  return Promise.resolve(0);
}
