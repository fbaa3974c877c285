'use strict';
// A page section that measures the service against other servers on a group of workloads
// (bench/lib/workloads.js `section`), and renders one table, what each server does per request (checked against
// what it did, bench/lib/audit.js) and how each is run and tuned.
const { auditServer } = require('./audit');
const { measureAll, comparisonTable, perRequestTable, setups, versionsOf, kindsOf } = require('./pairs');
const { workloadsOf, requestFor } = require('./workloads');

/** `{ id, title, intro, outro }`: the section's id (its workloads' `section`), heading, and the prose around its table. */
function peerSection({ id, title, intro, outro = '' }) {
  return {
    id,
    title,
    async run(options, context) {
      const workloads = workloadsOf(id, options.only);
      if (!workloads.length) return { skipped: `none of its workloads (${workloadsOf(id).map((w) => w.id).join(', ')}) was selected` };
      const rows = await measureAll(workloads, options, context);
      // Checked on the section's first workload, after measuring (its servers were all started by then).
      const audit = {};
      for (const kind of kindsOf(rows)) {
        audit[kind] = await auditServer(kind, requestFor(workloads[0], kind), { seedFile: context.seedFile(workloads[0].subject.seed) }).catch((e) => {
          context.log(`  ! ${kind} not checked: ${e.message}`);
          return undefined;
        });
        if (audit[kind]?.length) context.log(`  ! ${kind} does not do what its row says: ${audit[kind].join('; ')}`);
      }
      return { rows, versions: versionsOf(rows), audit };
    },
    render({ rows, versions, audit }, quality) {
      return [
        intro,
        comparisonTable(rows, quality),
        'What each server of this table does per request (`bench/lib/servers.js`), and whether it did so when the run sent it one request of the first workload:',
        perRequestTable(rows, audit),
        'How each server of this table is run and tuned (`bench/servers/`):',
        setups(rows, versions),
        outro,
      ]
        .filter(Boolean)
        .join('\n\n');
    },
  };
}

module.exports = { peerSection };
