/**
 * The frameworks a page has, behind one FrameworkAdapter (a page may hold React and Vue roots side by side: each is
 * measured by its own adapter, with no setting). Calls about a component go to the adapter that claims its handle;
 * calls about the DOM ask each in turn.
 */
import type { DebugHint } from '../../protocol/sources';
import type { ComponentRef, ComponentSink, FrameworkAdapter } from './adapter';

export class Adapters implements FrameworkAdapter {
  readonly name: string;
  private sink: ComponentSink | null = null;

  constructor(private readonly list: FrameworkAdapter[]) {
    this.name = list.map((a) => a.name).join('+');
  }

  /** The adapters' names, in the order they came. */
  get names(): string[] {
    return this.list.map((a) => a.name);
  }

  /** The roots (apps) the adapter of this name counts (0 without one). */
  rootsOf(name: string): number {
    for (const a of this.list) if (a.name === name) return a.roots ?? 0;
    return 0;
  }

  /** Whether an adapter of this name is in. */
  has(name: string): boolean {
    return this.list.some((a) => a.name === name);
  }

  /** A framework that arrived after the others (a renderer registered late): attached at once when they are. */
  add(a: FrameworkAdapter): void {
    this.list.push(a);
    (this as { name: string }).name = this.list.map((x) => x.name).join('+');
    if (this.sink !== null) a.attach(this.sink);
  }

  /** The name of the adapter that measures the component (null: none claims it). */
  frameworkOf(handle: object): string | null {
    return this.of(handle)?.name ?? null;
  }

  private of(handle: object): FrameworkAdapter | null {
    const list = this.list;
    if (list.length === 1) return list[0];
    for (const a of list) if (a.claims?.(handle) === true) return a;
    return null;
  }

  attach(sink: ComponentSink): void {
    this.sink = sink;
    for (const a of this.list) a.attach(sink);
  }

  detach(): void {
    this.sink = null;
    for (const a of this.list) a.detach();
  }

  claims(handle: object): boolean {
    return this.of(handle) !== null;
  }

  twinOf(handle: object): object | null {
    return this.of(handle)?.twinOf?.(handle) ?? null;
  }

  /** Whether every adapter reads its own roots' DOM records (none needs the pipeline's observer of the document). */
  get observesAll(): boolean {
    return this.list.every((a) => a.observes !== undefined);
  }

  observes(node: Node): boolean {
    for (const a of this.list) if (a.observes?.(node) === true) return true;
    return false;
  }

  flush(): void {
    for (const a of this.list) a.flush?.();
  }

  catchUp(): void {
    for (const a of this.list) a.catchUp?.();
  }

  topHostNodes(handle: object, out: Element[]): boolean {
    return this.of(handle)?.topHostNodes(handle, out) ?? false;
  }

  portalAbove(handle: object): boolean {
    return this.of(handle)?.portalAbove(handle) ?? false;
  }

  portals(visit: (container: Element, ownerId: number, tops: Element[], inner: number[]) => void): void {
    for (const a of this.list) a.portals(visit);
  }

  get portalVersion(): number {
    let v = 0;
    for (const a of this.list) v += a.portalVersion;
    return v;
  }

  get portalCount(): number {
    let n = 0;
    for (const a of this.list) n += a.portalCount;
    return n;
  }

  authored(handle: object, childAuthored: (child: ComponentRef) => number | null): number {
    return this.of(handle)?.authored(handle, childAuthored) ?? 0;
  }

  ownerOf(node: Node): number {
    for (const a of this.list) {
      const id = a.ownerOf(node);
      if (id !== 0) return id;
    }
    return 0;
  }

  typeOf(handle: object): unknown {
    return this.of(handle)?.typeOf(handle) ?? null;
  }

  keyOf(handle: object): string | null {
    return this.of(handle)?.keyOf(handle) ?? null;
  }

  nameOf(handle: object): string {
    return this.of(handle)?.nameOf(handle) ?? 'Anonymous';
  }

  debugOf(handle: object, stackOf: (e: unknown) => string | null): DebugHint | null {
    return this.of(handle)?.debugOf?.(handle, stackOf) ?? null;
  }
}
