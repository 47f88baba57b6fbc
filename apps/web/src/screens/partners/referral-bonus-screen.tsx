export const ReferralBonusScreen = () => <section data-screen="ReferralBonusScreen" />;
