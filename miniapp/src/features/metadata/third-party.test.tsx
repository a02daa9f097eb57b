import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GENERAL_INFO, mockApi } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import { GTM_SRC, resetThirdPartyForTests, SEON_SRC } from './third-party';

afterEach(() => {
  resetThirdPartyForTests();
  for (const script of document.head.querySelectorAll('script[src^="https://"]')) script.remove();
  window.dataLayer = [];
});

const sources = () => [...document.head.querySelectorAll<HTMLScriptElement>('script[src^="https://"]')].map((s) => s.src);

describe('the operator’s third-party scripts', () => {
  it('load the tag manager and the fraud agent from their official origins when the operator turned them on', async () => {
    mockApi({ 'metadata.getgeneralinfo': { ...GENERAL_INFO, analytic: { gtm_id: 'GTM-AB12CD' }, is_seon_enabled: true } });
    renderApp('/');
    await screen.findAllByRole('navigation');
    await expect.poll(sources).toEqual([`${GTM_SRC}?id=GTM-AB12CD`, SEON_SRC]);
    expect(window.dataLayer?.some((entry) => entry.event === 'gtm.js')).toBe(true);
  });

  it('load nothing while they are off', async () => {
    mockApi();
    renderApp('/');
    await screen.findAllByRole('navigation');
    expect(sources()).toEqual([]);
  });
});
