// Test-only extension, installed beside the packaged extension by test/e2e/driver.mjs.
// When SUBAGENTS_E2E_SUITE names the compiled suite (out/test/e2e/suite/index.js), it runs the
// mocha suite, writes SUBAGENTS_E2E_RESULTS (JSON), then plays the screenshot scenes. With
// SUBAGENTS_E2E_MEMFS (the web run) it first provides the `memfs:` file system, seeded from that folder.
'use strict';
const fs = require('fs');
const path = require('path');

exports.activate = function activate(context) {
  // The web run's workspace, `memfs:/ws`: a file system on no disk (memfs.js).
  if (process.env.SUBAGENTS_E2E_MEMFS)
    context.subscriptions.push(require('./memfs').registerMemFs(process.env.SUBAGENTS_E2E_MEMFS));
  const suite = process.env.SUBAGENTS_E2E_SUITE;
  const resultsFile = process.env.SUBAGENTS_E2E_RESULTS;
  if (!suite || !resultsFile) return;
  const logFile = `${resultsFile}.log`;
  const log = (line) => fs.appendFileSync(logFile, `${line}\n`);
  void (async () => {
    let results;
    try {
      results = await require(suite).runSuite();
    } catch (e) {
      results = { tests: [], passes: 0, failures: 1, pending: 0, error: String((e && e.stack) || e) };
    }
    fs.writeFileSync(`${resultsFile}.tmp`, JSON.stringify(results, null, 2));
    fs.renameSync(`${resultsFile}.tmp`, resultsFile);
    const scenes = process.env.SUBAGENTS_E2E_SCENES;
    if (scenes) {
      try {
        await require(path.join(path.dirname(suite), 'scenes.js')).runScenes(scenes, log);
      } catch (e) {
        log(`scenes failed: ${(e && e.stack) || e}`);
        fs.writeFileSync(path.join(scenes, 'all.done'), '');
      }
    }
  })();
};

exports.deactivate = function deactivate() {};
