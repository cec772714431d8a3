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

/** Window message type of the one-time handshake that hands the private port over. */
export const HANDSHAKE_TYPE = 'handshake';
