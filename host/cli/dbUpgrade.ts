// krieg db upgrade --db FILE
// Rewrites a schema version 1 problem database (rows without checksums) as version 2, in place and
// atomically; on a version 2 file it only verifies every row (host/db/database.node.ts). The shipped
// databases are upgraded; older files of one's own need this once.
import type { Argv } from 'yargs';
import { withDbOption, runCommand, say } from './common';
import { dbPathToWrite } from '../db/instances.node';
import { ProblemDb, SCHEMA_VERSION } from '../db/database.node';

export const upgradeCommand = {
  command: 'upgrade',
  describe: `give a schema version 1 database the row checksums of version ${SCHEMA_VERSION} (in place); on a version ${SCHEMA_VERSION} file, check every row`,
  builder: (y: Argv) =>
    withDbOption(y, 'the database to upgrade', true)
      .example('$0 db upgrade --db my.sqlite', 'add the row checksums to a database made by an older krieg')
      .epilogue(
        `Version 1 rows are taken as they are: a byte changed inside one before the upgrade is not found by it. Exit codes: 0 upgraded (or already version ${SCHEMA_VERSION}, every row intact), 2 bad input (a missing, foreign, newer or damaged database; nothing written), 1 internal error.`,
      ),
  handler: (argv: { db?: string }) =>
    runCommand(async () => {
      const path = dbPathToWrite(argv.db, 'db upgrade');
      const was = await ProblemDb.upgrade(path);
      say(
        was === SCHEMA_VERSION
          ? `${path}: schema version ${SCHEMA_VERSION} already; every row matches its checksum`
          : `${path}: upgraded from schema version ${was} to ${SCHEMA_VERSION} (every row signed)`,
      );
    }),
};
