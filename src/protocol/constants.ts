/**
 * Protocol constants, in their own module so that the document_start script
 * can import them without pulling in every validator of the protocol.
 */
export const PROTOCOL_VERSION = 1;

export const Source = {
  Page: 'layout-cost:page',
  Content: 'layout-cost:content',
  Background: 'layout-cost:background',
  Panel: 'layout-cost:panel',
} as const;
export type SourceName = (typeof Source)[keyof typeof Source];

export const MODES = ['off', 'components', 'heatmap', 'inspect'] as const;
export type Mode = (typeof MODES)[number];
export type OnMode = Exclude<Mode, 'off'>;

/**
 * How the channel's secret crosses from the isolated world to the MAIN world at load: the content boot, which runs
 * first, writes `SECRET_MARK + secret + SECRET_END + <what window.status held>` to `window.status`; the MAIN boot,
 * which runs next, before any page script, reads it and puts back what was there (docs/ARCHITECTURE.md, security
 * model).
 */
export const SECRET_MARK = '\u0000layout-cost:';
export const SECRET_END = '\u0000';

/**
 * The channel's offer is a MessageEvent the content script dispatches on window when the channel is wanted, of the
 * type OFFER_EVENT + the secret: no page script can name it, so none can listen for it or forge it.
 */
export const OFFER_EVENT = 'layout-cost:offer:';

/** The event the MAIN boot dispatches on window when the page calls the API before the channel is made. */
export const WAKE_EVENT = 'layout-cost:wake';
