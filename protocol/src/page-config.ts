import * as z from 'zod/mini';

/** The page configuration the server embeds as window.FileBrowser. */
export const PageConfig = z.object({
  Name: z.string(),
  DisableExternal: z.boolean(),
  DisableUsedPercentage: z.boolean(),
  Color: z.string(),
  BaseURL: z.string(),
  Version: z.string(),
  StaticURL: z.string(),
  Signup: z.boolean(),
  NoAuth: z.boolean(),
  AuthMethod: z.string(),
  LogoutPage: z.string(),
  LoginPage: z.boolean(),
  CSS: z.boolean(),
  /** Cabinet: the branding folder holds img/logo.svg, which the page shows instead of its mark. */
  CustomLogo: z.optional(z.boolean()),
  ReCaptcha: z.boolean(),
  ReCaptchaHost: z.optional(z.string()),
  ReCaptchaKey: z.optional(z.string()),
  Theme: z.string(),
  EnableThumbs: z.boolean(),
  ResizePreview: z.boolean(),
  EnableExec: z.boolean(),
  TusSettings: z.object({ chunkSize: z.number(), retryCount: z.number() }),
  HideLoginButton: z.boolean(),
  /**
   * Cabinet's: the page was asked for over https as the server sees it (directly, or through a
   * trusted proxy's X-Forwarded-Proto), so the web app marks its cookie Secure.
   */
  SecureCookies: z.optional(z.boolean()),
  /**
   * Cabinet's: single sign-on is configured (docs/sso.md); the login page offers "Sign in with
   * <this name>", which leads to /api/oidc/login.
   */
  OidcProvider: z.optional(z.string()),
});
export type PageConfig = z.infer<typeof PageConfig>;
