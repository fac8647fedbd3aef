import { describe, expect, it } from 'vitest';
import { ACTIONS, can, isRole, ROLE_ACTIONS, ROLE_SUMMARIES, ROLES } from './roles.ts';
import type { Action, Role } from './roles.ts';

const allowed = (role: Role): Action[] => ACTIONS.filter((action) => can(role, action));

describe('roles', () => {
  it('lets a viewer read and export leads and read the visit reports, and nothing else', () => {
    expect(allowed('viewer')).toEqual(['leads:read', 'leads:export', 'analytics:read']);
  });

  it('lets sales also retry, mark spam, work leads and give them to others, but not erase, manage accounts or set the rules', () => {
    expect(allowed('sales')).toEqual([
      'leads:read',
      'leads:export',
      'leads:retry',
      'leads:mark-spam',
      'leads:work',
      'leads:assign',
      'analytics:read',
    ]);
    expect(can('sales', 'leads:erase')).toBe(false);
    expect(can('sales', 'accounts:manage')).toBe(false);
    expect(can('sales', 'sales:manage')).toBe(false);
    expect(can('viewer', 'leads:work')).toBe(false);
  });

  it('lets only sales and admins work leads or give them to others, and only an admin set the rules and anyone’s hours', () => {
    expect(ROLES.filter((role) => can(role, 'leads:work'))).toEqual(['admin', 'sales']);
    expect(ROLES.filter((role) => can(role, 'leads:assign'))).toEqual(['admin', 'sales']);
    expect(ROLES.filter((role) => can(role, 'sales:manage'))).toEqual(['admin']);
  });

  it('tells the person choosing a role (the CLI’s help) that sales work leads and viewers do not', () => {
    expect(ROLE_SUMMARIES.sales).toContain('logs calls and e-mails');
    expect(ROLE_SUMMARIES.sales).toContain('gives a lead to another person');
    expect(ROLE_SUMMARIES.viewer).not.toContain('calls');
  });

  it('lets an editor use the content studio, and keeps the leads and the visit reports from them', () => {
    expect(allowed('editor')).toEqual(['studio:edit']);
    expect(can('editor', 'leads:read')).toBe(false);
  });

  it('lets an admin do everything, and only an admin erase leads or manage accounts', () => {
    expect(allowed('admin')).toEqual([...ACTIONS]);
    expect(ROLES.filter((role) => can(role, 'leads:erase'))).toEqual(['admin']);
    expect(ROLES.filter((role) => can(role, 'accounts:manage'))).toEqual(['admin']);
  });

  it('lets only an admin publish without review and review the requests of the studio', () => {
    expect(ROLES.filter((role) => can(role, 'studio:publish'))).toEqual(['admin']);
    expect(ROLES.filter((role) => can(role, 'studio:review'))).toEqual(['admin']);
  });

  it('lets exactly the roles that read the leads read the visit reports, whose lead counts could name one', () => {
    expect(ROLES.filter((role) => can(role, 'analytics:read'))).toEqual(ROLES.filter((role) => can(role, 'leads:read')));
  });

  it('names only known actions for every role', () => {
    for (const role of ROLES) for (const action of ROLE_ACTIONS[role]) expect(ACTIONS).toContain(action);
  });

  it('gives a role it does not know no access at all, whatever its name', () => {
    for (const name of ['owner', 'Admin', '__proto__', 'constructor', 'toString', '']) {
      expect(isRole(name)).toBe(false);
      expect(ACTIONS.filter((action) => can(name as Role, action))).toEqual([]);
    }
  });
});
