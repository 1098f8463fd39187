/**
 * Holds background copy jobs after landed files, so a test catches a run mid-way without timing:
 * start the server with `afterJobFile: hold.afterFile`, then set `each` in the test that holds.
 */
export class FileJobHold {
  /** Awaited after each file a copy job lands while set; unset, runs go on. */
  each: (() => Promise<void>) | undefined;

  readonly afterFile = async (): Promise<void> => {
    await this.each?.();
  };
}
