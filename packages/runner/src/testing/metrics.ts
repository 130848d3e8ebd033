/** The daemon's `/metrics` as a test reads it: sample (name with labels) -> value. */

/**
 * Parses Prometheus text exposition: `# HELP`/`# TYPE` lines and blank lines are skipped, every
 * other line is `sample value`.
 */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/**
 * Fetches and parses `${daemonUrl}/metrics`.
 *
 * @example
 * const m = await readMetrics(daemon.url);
 * expect(m.get('oaa_connector_runs_total{connector="app",status="pushed"}')).toBe(1);
 */
export async function readMetrics(daemonUrl: string): Promise<Map<string, number>> {
  const res = await fetch(`${daemonUrl}/metrics`);
  if (!res.ok) throw new Error(`GET /metrics: HTTP ${res.status}`);
  return parseMetrics(await res.text());
}
