export const NetworkExpansionBonusScreen = () => <section data-screen="NetworkExpansionBonusScreen" />;
