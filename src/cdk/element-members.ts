import type { Node } from 'constructs';

/**
 * What a construct of this package is, as its declarations say: the members of a cdktf element
 * (a resource or a data source) that apps use, typed loosely where they take the library's own
 * classes, and the kind's attributes beside them.
 *
 * They are not written as cdktf's class: a CDK Terrain project made from its template has cdktn
 * but not cdktf, skips the library's declarations (`skipLibCheck`) and maps no `paths`, so cdktf's
 * class would be `any` there, and `any & { id: string }` is `any`: a misspelled attribute
 * (`tenant.tenantId`) would compile. These members keep every construct typed in any project, and
 * the construct still goes wherever cdktf or cdktn takes an element (`dependsOn`,
 * `TerraformIterator.fromResources`, `TerraformStack.of`); `constructs` is always there.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- these stand for the library's classes, which are not known here */
export interface ElementMembers {
  readonly node: Node;
  /** `constructs` 10.5 and later: applies mixins (older ones have no such member, and ignore it). */
  with(...mixins: any[]): any;
  readonly fqn: string;
  readonly friendlyUniqueId: string;
  readonly terraformResourceType: string;
  readonly terraformGeneratorMetadata?: any;
  readonly terraformMetaArguments: Record<string, any>;
  dependsOn?: string[];
  count?: any;
  forEach?: any;
  provider?: any;
  lifecycle?: any;
  connection?: any;
  provisioners?: any[];
  addOverride(path: string, value: any): void;
  overrideLogicalId(newLogicalId: string): void;
  resetOverrideLogicalId(): void;
  importFrom(id: string, provider?: any): void;
  moveTo(moveTarget: string, index?: string | number): void;
  moveToId(id: string): void;
  moveFromId(id: string): void;
  hasResourceMove(): any;
  interpolationForAttribute(terraformAttribute: string): any;
  getStringAttribute(terraformAttribute: string): string;
  getNumberAttribute(terraformAttribute: string): number;
  getListAttribute(terraformAttribute: string): string[];
  getBooleanAttribute(terraformAttribute: string): any;
  getNumberListAttribute(terraformAttribute: string): number[];
  getStringMapAttribute(terraformAttribute: string): Record<string, string>;
  getNumberMapAttribute(terraformAttribute: string): Record<string, number>;
  getBooleanMapAttribute(terraformAttribute: string): Record<string, boolean>;
  getAnyMapAttribute(terraformAttribute: string): Record<string, any>;
  toTerraform(): any;
  toHclTerraform(): any;
  toMetadata(): any;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
