/** Where the product lives: linked from the footer and from error notifications. */
export const PRODUCT_URL = 'https://github.com/cabinet-files/cabinet';

/** Where users report problems ("Report issue" on error notifications). */
export const ISSUES_URL = `${PRODUCT_URL}/issues/new`;
