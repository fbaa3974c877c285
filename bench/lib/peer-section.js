'use strict';
// A page section that measures the service against other servers on a group of workloads
// (bench/lib/workloads.js `section`), and renders one table plus how each server is run and tuned.
const { measureAll, comparisonTable, setups, versionsOf } = require('./pairs');
const { workloadsOf } = require('./workloads');

/** `{ id, title, intro, outro }`: the section's id (its workloads' `section`), heading, and the prose around its table. */
function peerSection({ id, title, intro, outro = '' }) {
  return {
    id,
    title,
    async run(options, context) {
      const workloads = workloadsOf(id, options.only);
      if (!workloads.length) return { skipped: `none of its workloads (${workloadsOf(id).map((w) => w.id).join(', ')}) was selected` };
      const rows = await measureAll(workloads, options, context);
      return { rows, versions: versionsOf(rows) };
    },
    render({ rows, versions }) {
      return [intro, comparisonTable(rows), 'How each server of this table is run and tuned (`bench/servers/`):', setups(rows, versions), outro]
        .filter(Boolean)
        .join('\n\n');
    },
  };
}

module.exports = { peerSection };
