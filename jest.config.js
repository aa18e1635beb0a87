/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  // Engine tests start a provider host and a server per file; give them room on a 2-core machine.
  testTimeout: 60000,
  maxWorkers: 2,
};
