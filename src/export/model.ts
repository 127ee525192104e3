/** What an export found: the objects of a tenant's subtree, as every renderer of the export reads them. */
import type { Application } from '../api';
import type { Diagnostic } from '../diagnostics';
import type { ResourceKind, State } from '../resources/declaration';
import type { TenantInfo } from './discover';

export interface ExportedObject {
  readonly kind: ResourceKind;
  /** The resource name, unique within the export. */
  readonly name: string;
  /** `<type>.<name>` */
  readonly address: string;
  readonly importId: string;
  readonly tenant: TenantInfo;
  /** The attributes as `tenantform import` records them. */
  readonly state: State;
  /** The configuration that declares the object (snake_case). */
  readonly config: State;
  /** Addresses of exported objects the platform needs first (`depends_on`). */
  readonly dependsOn: readonly string[];
}

export interface TenantExport {
  readonly root: TenantInfo;
  /** The stack the exported app declares. */
  readonly stack: string;
  readonly tenants: readonly TenantInfo[];
  readonly applications: readonly Application[];
  readonly objects: readonly ExportedObject[];
  /** Warnings for objects deleted while the export ran (left out); errors for objects that could not be read. */
  readonly diagnostics: readonly Diagnostic[];
}
