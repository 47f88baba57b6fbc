export const MyRewardsScreen = () => <section data-screen="MyRewardsScreen" />;
