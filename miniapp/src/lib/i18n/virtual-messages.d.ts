// The parts of a locale's messages (message-parts.ts), made by vite.config.ts's messageParts plugin:
// `virtual:messages/en/first`, `virtual:messages/fr/rest`…
declare module 'virtual:messages/*' {
  const messages: Record<string, unknown>;
  export default messages;
}
