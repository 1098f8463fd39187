/** The version shown in the interface and by `cabinet --version`. */
export const VERSION = process.env.CABINET_VERSION ?? '0.1.0';
