// The variable `fleet adopt` sets for its one import run (program.ts reads it). In a module of its
// own: the CLI needs the name, not the program (which loads @pulumi/pulumi, ~0.5 s of start-up
// for every fleet command that runs no program, `fleet drift` among them).

/**
 * Set by `fleet adopt` for its one import run: every connector and configuration is imported
 * (the engine reads them; it writes nothing, and a difference fails the import). The secret
 * sources are left to the service during that run: their first write is the next `fleet up`'s.
 */
export const FLEET_IMPORT_ENV = "EMBEDDED_FLEET_IMPORT";
