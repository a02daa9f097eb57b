import { ProfileFrame } from '@/features/account';
import { BreakSection, LimitsSection, RealitySection } from './responsible-tools';

/**
 * /profile/responsible-game: deposit, loss and wager limits (the 24-hour rule shown), time-out
 * and self-exclusion, and the reality check.
 */
export function ResponsiblePage() {
  return (
    <ProfileFrame tab="profileResponsibleGame">
      <LimitsSection />
      <BreakSection />
      <RealitySection />
    </ProfileFrame>
  );
}
