export const MatchingBonusScreen = () => <section data-screen="MatchingBonusScreen" />;
