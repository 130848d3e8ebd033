/**
 * resources: the memory a run takes stays under the bound the plugin declares
 * (`"oaakit": { "acceptance": { "peakRssMb": N } }` in its package.json). The figure is the growth
 * of the process's RSS over one run, extract and the read of the payload: its highest sample
 * minus its value when the run started. Growth, not the process's whole RSS, so that the figure
 * is the connector's whatever process runs it (`oaa`, a test runner). RSS is sampled at each
 * request, streamed item, `ctx.progress` and `ctx.state.set` call, when `extract` returns, and
 * every 50 ms between.
 */
import { runFailure } from './check-extract.js';
import type { AcceptanceKit } from './kit.js';
import { fail, pass, skip } from './types.js';
import type { CheckOutcome } from './types.js';

const MB = 1024 * 1024;

function mb(bytes: number): number {
  return Math.round((bytes / MB) * 10) / 10;
}

/** The resources check. */
export async function checkResources(kit: AcceptanceKit): Promise<CheckOutcome> {
  const bound = kit.options.bounds?.peakRssMb;
  if (bound === undefined)
    return skip('no bound declared (set "oaakit": { "acceptance": { "peakRssMb": N } } in package.json)');
  const ended = await kit.run({ check: 'resources' });
  if (ended.result === undefined) return fail(`the run failed: ${runFailure(ended)}`);
  const { probe } = ended;
  const peakRssMb = mb(probe.peakRss - probe.startRss);
  const details = {
    peakRssMb,
    boundMb: bound,
    startRssMb: mb(probe.startRss),
    processPeakRssMb: mb(probe.peakRss),
  };
  const figure = `RSS grew by ${peakRssMb} MB during extract and read (bound ${bound} MB)`;
  return peakRssMb <= bound ? pass(figure, details) : fail(figure, details);
}
