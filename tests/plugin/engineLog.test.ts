/**
 * The plugin's writer of the engine's log (`plugin/engineLog.ts`), against a fake engine that handles each
 * `Log` call on its own and may answer a call later than the ones after it: the lines still reach it in the
 * order they were written (an upgrade's statuses), `flushed()` settles only once every line has, and an
 * engine that is not there loses the lines without failing or holding anything.
 */
import { EngineLog } from "../../plugin/engineLog";
import { startFakeEngine } from "./pluginFixture";

const URN = "urn:pulumi:dev::p::wos:index:NoCodeWorkspace::site";

test("lines written together reach the engine in the order written, though it handles the first one last", async () => {
    // The first call is handled 300 ms after it arrives, every later one at once.
    const engine = await startFakeEngine({ answerDelayMs: (call) => (call === 0 ? 300 : 0) });
    const log = new EngineLog(engine.address);
    try {
        const messages = ["started: pending", "fetching", "planning", "planned", "confirmed and applied"];
        for (const message of messages) log.info(URN, message);
        await log.flushed();
        expect(engine.lines.map((line) => line.message)).toEqual(messages);
        expect(engine.lines.every((line) => line.urn === URN && line.severity === 1)).toBe(true);
    } finally {
        log.close();
        await engine.close();
    }
});

test("flushed() settles once every line written before it has been handled, not before", async () => {
    const engine = await startFakeEngine({ answerDelayMs: () => 100 });
    const log = new EngineLog(engine.address);
    try {
        log.info(URN, "one");
        log.info(URN, "two");
        const flushed = log.flushed();
        log.info(URN, "three");
        await flushed;
        expect(engine.lines.map((line) => line.message)).toEqual(["one", "two"]);
        await log.flushed();
        expect(engine.lines.map((line) => line.message)).toEqual(["one", "two", "three"]);
    } finally {
        log.close();
        await engine.close();
    }
});

test("with no engine listening, lines are dropped: info() does not throw and flushed() settles", async () => {
    const engine = await startFakeEngine();
    const address = engine.address;
    await engine.close();
    const log = new EngineLog(address);
    try {
        log.info(URN, "lost");
        await expect(log.flushed()).resolves.toBeUndefined();
    } finally {
        log.close();
    }
});

test("without an engine address, nothing is sent and flushed() settles at once", async () => {
    const log = new EngineLog(undefined);
    log.info(URN, "nowhere");
    await expect(log.flushed()).resolves.toBeUndefined();
});
