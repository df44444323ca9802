/**
 * KEY=VALUE lines (comments and blank lines left out), as systemd's EnvironmentFile= and a shell's
 * `set -a; . file` both read them: quotes are not part of the value. For deploy/formsign.env.example.
 */
export function envFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    const value = line.slice(at + 1);
    env[line.slice(0, at)] = /^".*"$/.test(value) ? value.slice(1, -1) : value;
  }
  return env;
}
