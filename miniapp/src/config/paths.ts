/** Unprefixed (default-locale) paths; `localizePath` adds the locale prefix. */
export const paths = {
  home: '/',
} as const;
