import {
  TwoFactorRecoveryCodes,
  TwoFactorSetup,
  TwoFactorPolicyBody,
  TwoFactorStatus,
  UserTwoFactor,
  type TwoFactorPolicy,
} from '@cabinet/protocol';
import { apiJson, apiRequest } from '../../api/client.ts';

export const fetchTwoFactorStatus = () => apiJson('/two-factor', TwoFactorStatus);

export const startTwoFactorSetup = () =>
  apiJson('/two-factor/setup', TwoFactorSetup, { method: 'POST' });

export const enableTwoFactor = (code: string) =>
  apiJson('/two-factor/enable', TwoFactorRecoveryCodes, { method: 'POST', json: { code } });

export async function disableTwoFactor(password: string, code: string): Promise<void> {
  await apiRequest('/two-factor/disable', { method: 'POST', json: { password, code } });
}

export async function saveTwoFactorPolicy(policy: TwoFactorPolicy): Promise<void> {
  await apiRequest('/two-factor/policy', { method: 'PUT', json: { require: policy } });
}

export async function resetUserTwoFactor(userId: number): Promise<void> {
  await apiRequest(`/users/${userId}/two-factor`, { method: 'DELETE' });
}

export const fetchTwoFactorPolicy = () => apiJson('/two-factor/policy', TwoFactorPolicyBody);

export const fetchUserTwoFactor = (userId: number) =>
  apiJson(`/users/${userId}/two-factor`, UserTwoFactor);
